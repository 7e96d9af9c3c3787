package io.spillover.sagemakerapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.spillover.support.ApiTest;
import io.spillover.support.ConsoleSession;
import io.spillover.support.SignedCalls;
import io.spillover.support.WebhookReceiver;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The endpoint's operations as raw AWS JSON 1.1 calls, signed by the AWS SDK's own signer: SageMaker's error codes
 * for each kind of refusal, lists with their filters and pages, tags, the audit record of every change, the
 * failure limit, and a job made here being the same job in the REST API, the console and webhooks.
 */
class SageMakerOperationsTest extends ApiTest {

    static final String TYPE = "ml.t3.large";
    static final String ROLE = "arn:aws:iam::111122223333:role/SpilloverJobs";
    private static final AtomicInteger ADDRESSES = new AtomicInteger();
    private final WebhookReceiver receiver = new WebhookReceiver();

    @AfterEach
    void closeReceiver() {
        receiver.close();
    }

    @Test
    void aJobMadeHereIsTheSameJobInTheRestApiTheConsoleAndWebhooks() {
        capacity(TYPE, 1);
        String team = team(Map.of(TYPE, 1));
        expect(api.put("/api/v1/teams/" + team + "/webhooks/ci", Map.of("url", receiver.url("/ci"), "events",
                List.of("job.started", "job.completed"))), 201);
        SignedCalls calls = signer(team);

        var created = calls.call("CreateTrainingJob", training("same-everywhere", List.of("sh", "-c", "true")));
        JsonNode rest = awaitStatus(team, "same-everywhere", "COMPLETED");
        await().atMost(Duration.ofSeconds(10)).until(() -> receiver.received().size() >= 2);
        ConsoleSession console = member(team, "MEMBER");

        assertThat(created.status()).as(created.text()).isEqualTo(200);
        assertThat(rest.get("kind").asString()).isEqualTo("TRAINING");
        assertThat(rest.get("sagemaker").get("roleArn").asString()).isEqualTo(ROLE);
        assertThat(receiver.received()).extracting(WebhookReceiver.Received::type)
                .containsExactly("io.spillover.job.started", "io.spillover.job.completed");
        assertThat(receiver.received()).allSatisfy(r -> assertThat(r.subject()).isEqualTo("same-everywhere"));
        assertThat(console.get("/teams/" + team + "/jobs/same-everywhere").body()).contains("same-everywhere")
                .contains("COMPLETED");
        JsonNode described = calls.call("DescribeTrainingJob", Map.of("TrainingJobName", "same-everywhere")).json();
        assertThat(described.get("TrainingJobStatus").asString()).isEqualTo("Completed");
        assertThat(described.get("CreationTime").isNumber()).isTrue();
        assertThat(described.get("CreationTime").asDouble()).isEqualTo(
                Instant.parse(rest.get("createdAt").asString()).toEpochMilli() / 1000.0);
    }

    @Test
    void aTeamAdminMakesAnAccessKeyInTheConsoleAndItsSecretIsShownOnce() {
        String team = team(Map.of(TYPE, 1));
        ConsoleSession admin = member(team, "TEAM_ADMIN");
        String tokens = "/teams/" + team + "/tokens";

        var made = admin.post(tokens, Map.of("name", "airflow", "role", "MEMBER", "accessKey", "true",
                "_csrf", admin.csrf(tokens)));
        String shown = admin.get(tokens).body();
        String again = admin.get(tokens).body();
        var id = Pattern.compile("id=\"access-key-id\"[^>]*>(SPLK[A-Z2-7]{16})<").matcher(shown);
        var secret = Pattern.compile("id=\"secret-access-key\"[^>]*>([^<]{40})<").matcher(shown);

        assertThat(made.statusCode()).isEqualTo(302);
        assertThat(id.find()).as(shown).isTrue();
        assertThat(secret.find()).isTrue();
        assertThat(again).contains(id.group(1)).doesNotContain(secret.group(1));
        assertThat(new SignedCalls(port(), id.group(1), secret.group(1), "us-east-1").from(address())
                .call("ListTrainingJobs", Map.of()).status()).isEqualTo(200);
    }

    @Test
    void aWaitingJobSaysWhyInItsPendingTransitionAndAFailedOneAsSageMakerWordsIt() {
        capacity(TYPE, 0);
        capacity("ml.t3.xlarge", 1);
        String team = team(Map.of(TYPE, 1, "ml.t3.xlarge", 1));
        SignedCalls calls = signer(team);
        calls.call("CreateTrainingJob", training("waiting", null));
        calls.call("CreateTrainingJob", training("failing", List.of("sh", "-c", "echo no data; exit 3"),
                "ml.t3.xlarge", 1));
        awaitEvaluation(team, "waiting");
        awaitStatus(team, "failing", "FAILED");

        JsonNode waiting = calls.call("DescribeTrainingJob", Map.of("TrainingJobName", "waiting")).json();
        JsonNode failed = calls.call("DescribeTrainingJob", Map.of("TrainingJobName", "failing")).json();

        assertThat(waiting.get("TrainingJobStatus").asString()).isEqualTo("InProgress");
        assertThat(waiting.get("SecondaryStatus").asString()).isEqualTo("Pending");
        JsonNode last = waiting.get("SecondaryStatusTransitions").get(waiting.get("SecondaryStatusTransitions").size() - 1);
        assertThat(last.get("Status").asString()).isEqualTo("Pending");
        assertThat(last.get("StatusMessage").asString()).startsWith("Waiting for capacity: entry 0 (1 x ml.t3.large):"
                + " on-demand ml.t3.large in us-east-1 has no instances");
        assertThat(waiting.get("ResourceConfig").has("SelectedInstanceType")).isFalse();
        assertThat(failed.get("TrainingJobStatus").asString()).isEqualTo("Failed");
        assertThat(failed.get("FailureReason").asString()).startsWith("AlgorithmError: ");
        assertThat(failed.get("ResourceConfig").get("SelectedInstanceType").asString()).isEqualTo("ml.t3.xlarge");
    }

    @Test
    void everyChangeIsAuditedAsTheRestApisAreWithTheTokenThatSigned() {
        capacity(TYPE, 0);
        String team = team(Map.of(TYPE, 1));
        JsonNode token = accessKey(team);
        var calls = new SignedCalls(port(), token.get("accessKeyId").asString(),
                token.get("secretAccessKey").asString(), "us-east-1").from(address());

        calls.call("CreateTrainingJob", training("audited", null));
        calls.call("AddTags", Map.of("ResourceArn", "arn:aws:sagemaker:us-east-1:000000000000:training-job/audited",
                "Tags", List.of(Map.of("Key", "stage", "Value", "dev"))));
        calls.call("StopTrainingJob", Map.of("TrainingJobName", "audited"));
        calls.call("DescribeTrainingJob", Map.of("TrainingJobName", "audited"));

        var actions = new ArrayList<String>();
        for (JsonNode entry : expect(api.get("/api/v1/admin/audit?size=100"), 200).json()) {
            if (entry.get("actor").asString().equals("token:" + token.get("id").asString())) {
                actions.add(0, entry.get("action").asString() + " " + entry.get("target").asString() + " "
                        + entry.get("outcome").asString());
            }
        }
        assertThat(actions).containsExactly("submit job teams/" + team + "/jobs done",
                "tag job teams/" + team + "/jobs/audited done", "stop job teams/" + team + "/jobs/audited done");
    }

    @Test
    void refusalsCarrySageMakersCodesAndStoreNothing() {
        capacity(TYPE, 0);
        String team = team(Map.of(TYPE, 1));
        SignedCalls calls = signer(team);
        calls.call("CreateTrainingJob", training("taken", null));

        var malformed = calls.call("CreateTrainingJob", "{\"TrainingJobName\": ");
        var wrongType = calls.call("CreateTrainingJob", "{\"TrainingJobName\": \"x\", \"ResourceConfig\":"
                + " {\"InstanceType\": \"" + TYPE + "\", \"InstanceCount\": \"two\"}}");
        var unknownType = calls.call("CreateTrainingJob", training("typo", null, "ml.p9.mega", 1));
        var overQuota = calls.call("CreateTrainingJob", training("too-many", null, TYPE, 3));
        var taken = calls.call("CreateTrainingJob", training("taken", null));
        var unknownOperation = calls.call("DeleteTrainingJob", Map.of("TrainingJobName", "taken"));
        var unknownMember = calls.call("DescribeTrainingJob", Map.of("TrainingJobName", "taken", "Verbose", true));
        var missing = calls.call("DescribeProcessingJob", Map.of("ProcessingJobName", "taken"));
        var noSignature = calls.send("SageMaker.ListTrainingJobs", "{}", false);

        assertThat(SignedCalls.code(malformed)).isEqualTo("SerializationException");
        assertThat(SignedCalls.code(wrongType)).isEqualTo("ValidationException");
        assertThat(wrongType.json().get("message").asString()).contains("ResourceConfig.InstanceCount");
        assertThat(SignedCalls.code(unknownType)).isEqualTo("ValidationException");
        assertThat(unknownType.json().get("message").asString()).isEqualTo("1 validation error detected:"
                + " ResourceConfig.InstanceType: unknown instance type ml.p9.mega");
        assertThat(SignedCalls.code(overQuota)).isEqualTo("ResourceLimitExceeded");
        assertThat(overQuota.json().get("message").asString()).contains("ResourceConfig.InstanceCount")
                .contains("team quota for ml.t3.large");
        assertThat(SignedCalls.code(taken)).isEqualTo("ResourceInUse");
        assertThat(SignedCalls.code(unknownOperation)).isEqualTo("UnknownOperationException");
        assertThat(SignedCalls.code(unknownMember)).isEqualTo("ValidationException");
        assertThat(unknownMember.json().get("message").asString()).contains("'Verbose' is not a member");
        assertThat(missing.json().get("message").asString()).isEqualTo("Requested resource not found.");
        assertThat(SignedCalls.code(noSignature)).isEqualTo("MissingAuthenticationTokenException");
        assertThat(List.of(malformed, wrongType, unknownType, overQuota, taken, unknownOperation, noSignature))
                .allSatisfy(r -> {
                    assertThat(r.status()).isEqualTo(400);
                    assertThat(r.header("Content-Type")).isEqualTo("application/x-amz-json-1.1");
                });
        assertThat(expect(api.get("/api/v1/teams/" + team + "/jobs"), 200).json().get("items")).hasSize(1);
    }

    @Test
    void listsFilterSortAndPageAsSageMakersDo() {
        capacity(TYPE, 0);
        String team = team(Map.of(TYPE, 1));
        SignedCalls calls = signer(team);
        for (String name : List.of("sweep-a", "sweep-b", "sweep-c", "other-d", "sweep-e")) {
            calls.call("CreateTrainingJob", training(name, null));
        }
        calls.call("StopTrainingJob", Map.of("TrainingJobName", "sweep-b"));
        awaitStatus(team, "sweep-b", "STOPPED");

        var names = new ArrayList<String>();
        String token = null;
        int pages = 0;
        do {
            var request = new LinkedHashMap<String, Object>(Map.of("NameContains", "SWEEP", "MaxResults", 2,
                    "SortBy", "Name", "SortOrder", "Ascending"));
            if (token != null) {
                request.put("NextToken", token);
            }
            JsonNode page = calls.call("ListTrainingJobs", request).json();
            page.get("TrainingJobSummaries").forEach(s -> names.add(s.get("TrainingJobName").asString()));
            token = page.path("NextToken").asString(null);
            pages++;
            if (pages == 1) {
                calls.call("CreateTrainingJob", training("sweep-0-late", null)); // after the first page: not in it
            }
        } while (token != null);
        JsonNode stopped = calls.call("ListTrainingJobs", Map.of("StatusEquals", "Stopped")).json();
        JsonNode inProgress = calls.call("ListTrainingJobs", Map.of("StatusEquals", "InProgress",
                "SortBy", "CreationTime")).json();
        JsonNode processing = calls.call("ListProcessingJobs", Map.of()).json();
        var badToken = calls.call("ListTrainingJobs", Map.of("NextToken", "not-a-token"));
        var badStatus = calls.call("ListTrainingJobs", Map.of("StatusEquals", "Running"));

        assertThat(names).containsExactly("sweep-a", "sweep-b", "sweep-c", "sweep-e");
        assertThat(pages).isEqualTo(2);
        assertThat(stopped.get("TrainingJobSummaries")).extracting(s -> s.get("TrainingJobName").asString()
                + " " + s.get("SecondaryStatus").asString()).containsExactly("sweep-b Stopped");
        assertThat(inProgress.get("TrainingJobSummaries")).extracting(s -> s.get("TrainingJobName").asString())
                .containsExactly("sweep-0-late", "sweep-e", "other-d", "sweep-c", "sweep-a");
        assertThat(processing.get("ProcessingJobSummaries")).isEmpty();
        assertThat(SignedCalls.code(badToken)).isEqualTo("ValidationException");
        assertThat(SignedCalls.code(badStatus)).isEqualTo("ValidationException");
    }

    @Test
    void tagsGivenAtCreationAndAddedLaterAreListedAndGoWithTheJob() {
        capacity(TYPE, 0);
        String team = team(Map.of(TYPE, 1));
        SignedCalls calls = signer(team);
        var body = new LinkedHashMap<>(training("tagged", null));
        body.put("Tags", List.of(Map.of("Key", "project", "Value", "llama"), Map.of("Key", "stage", "Value", "dev")));
        calls.call("CreateTrainingJob", body);
        String arn = "arn:aws:sagemaker:us-east-1:000000000000:training-job/tagged";

        var added = calls.call("AddTags", Map.of("ResourceArn", arn, "Tags", List.of(Map.of("Key", "stage",
                "Value", "prod"), Map.of("Key", "owner", "Value", "vera"))));
        JsonNode listed = calls.call("ListTags", Map.of("ResourceArn", arn)).json();
        var reserved = calls.call("AddTags", Map.of("ResourceArn", arn, "Tags", List.of(Map.of("Key",
                "spillover:team", "Value", "x"))));
        var notAJob = calls.call("ListTags", Map.of("ResourceArn",
                "arn:aws:sagemaker:us-east-1:000000000000:model/tagged"));

        assertThat(added.status()).as(added.text()).isEqualTo(200);
        assertThat(listed.get("Tags")).extracting(t -> t.get("Key").asString() + "=" + t.get("Value").asString())
                .containsExactly("project=llama", "stage=prod", "owner=vera");
        assertThat(describe(team, "tagged").get("sagemaker").get("tags").get("owner").asString()).isEqualTo("vera");
        assertThat(SignedCalls.code(reserved)).isEqualTo("ValidationException");
        assertThat(SignedCalls.code(notAJob)).isEqualTo("ValidationException");
    }

    @Test
    void failedSignaturesCountTowardTheAddressesFailureLimit() {
        String team = team(Map.of(TYPE, 1));
        JsonNode token = accessKey(team);
        String address = address();
        var good = new SignedCalls(port(), token.get("accessKeyId").asString(),
                token.get("secretAccessKey").asString(), "us-east-1").from(address);
        SignedCalls bad = good.withSecret("a-wrong-secret-of-forty-characters-000000");

        var codes = new ArrayList<String>();
        for (int i = 0; i < 20; i++) {
            codes.add(SignedCalls.code(bad.call("ListTrainingJobs", Map.of())));
        }
        var blocked = good.call("ListTrainingJobs", Map.of());
        var elsewhere = good.from(address()).call("ListTrainingJobs", Map.of());

        assertThat(codes).containsOnly("InvalidSignatureException");
        assertThat(SignedCalls.code(blocked)).isEqualTo("ThrottlingException");
        assertThat(blocked.status()).isEqualTo(400);
        assertThat(elsewhere.status()).isEqualTo(200);
    }

    @Test
    void aRevokedTokensKeyIsNoLongerRecognised() {
        String team = team(Map.of(TYPE, 1));
        JsonNode token = accessKey(team);
        var calls = new SignedCalls(port(), token.get("accessKeyId").asString(),
                token.get("secretAccessKey").asString(), "us-east-1").from(address());
        assertThat(calls.call("ListTrainingJobs", Map.of()).status()).isEqualTo(200);

        expect(api.delete("/api/v1/teams/" + team + "/tokens/" + token.get("id").asString()), 204);

        assertThat(SignedCalls.code(calls.call("ListTrainingJobs", Map.of()))).isEqualTo("UnrecognizedClientException");
        assertThat(expect(api.get("/api/v1/teams/" + team + "/tokens"), 200).text()).doesNotContain(
                token.get("secretAccessKey").asString());
    }

    private static Map<String, Object> training(String name, List<String> entrypoint) {
        return training(name, entrypoint, TYPE, 1);
    }

    private static Map<String, Object> training(String name, List<String> entrypoint, String type, int count) {
        var algorithm = new LinkedHashMap<String, Object>(Map.of("TrainingImage", "image:1", "TrainingInputMode",
                "File"));
        if (entrypoint != null) {
            algorithm.put("ContainerEntrypoint", entrypoint);
        }
        return Map.of("TrainingJobName", name, "RoleArn", ROLE, "AlgorithmSpecification", algorithm,
                "OutputDataConfig", Map.of("S3OutputPath", "s3://bucket/out"),
                "ResourceConfig", Map.of("InstanceType", type, "InstanceCount", count, "VolumeSizeInGB", 10));
    }

    private JsonNode accessKey(String team) {
        return expect(api.post("/api/v1/teams/" + team + "/tokens", Map.of("name", "sdk", "role", "MEMBER",
                "accessKey", true)), 201).json();
    }

    private SignedCalls signer(String team) {
        JsonNode token = accessKey(team);
        return new SignedCalls(port(), token.get("accessKeyId").asString(), token.get("secretAccessKey").asString(),
                "us-east-1").from(address());
    }

    /** An address of its own for each caller, so that one test's failures never limit another's. */
    private static String address() {
        return "198.51.100." + (ADDRESSES.incrementAndGet() % 250 + 1);
    }

    private ConsoleSession member(String team, String role) {
        String username = "sm-" + role.toLowerCase() + "-" + team;
        expect(api.put("/api/v1/admin/users/" + username, Map.of("displayName", username, "password",
                "a-console-password-42")), 201);
        expect(api.put("/api/v1/admin/users/" + username + "/memberships/" + team, Map.of("role", role)), 200);
        var session = new ConsoleSession(port());
        session.signIn(username, "a-console-password-42");
        return session;
    }
}
