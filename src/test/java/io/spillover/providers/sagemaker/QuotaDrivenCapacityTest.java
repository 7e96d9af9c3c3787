package io.spillover.providers.sagemaker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.spillover.capacity.CapacityService;
import io.spillover.placement.OfferingKey;
import io.spillover.support.ApiTest;
import io.spillover.support.ConsoleSession;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * The SageMaker provider with no fleet table: every offering's total comes from the account's applied service
 * quotas (Service Quotas' ListServiceQuotas on the local AWS endpoint), less what the account's jobs outside
 * Spillover hold. The real AWS SDK talks to {@link FakeSageMaker} for both services.
 */
@TestPropertySource(properties = {
        "spillover.provider=sagemaker",
        "spillover.sagemaker.region=us-east-1",
        "spillover.sagemaker.regions=us-east-1,us-west-2",
        "spillover.sagemaker.role-arn=arn:aws:iam::111122223333:role/SpilloverJobs",
        "spillover.sagemaker.output-s3-uri=s3://spillover-artifacts/out",
        "spillover.sagemaker.status-interval=100ms",
        "spillover.sagemaker.plan-sync-interval=1h",
        "spillover.sagemaker.quota-refresh-interval=1h",
        "spillover.sagemaker.retry.base-delay=10ms",
        "spillover.sagemaker.retry.max-delay=50ms"})
class QuotaDrivenCapacityTest extends ApiTest {

    static final String P5 = "ml.p5.48xlarge";
    static final String P4D = "ml.p4d.24xlarge";
    static final String G6E = "ml.g6e.48xlarge";
    static final String TRN1 = "ml.trn1.32xlarge";
    static final String M5 = "ml.m5.xlarge";
    static final String G5 = "ml.g5.12xlarge";
    static final String IMAGE = "111122223333.dkr.ecr.us-east-1.amazonaws.com/train:1";
    static final String WEST = "us-west-2";
    static final FakeSageMaker AWS;

    static {
        System.setProperty("aws.accessKeyId", "AKIAIOSFODNN7EXAMPLE");
        System.setProperty("aws.secretAccessKey", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY");
        AWS = new FakeSageMaker();
        // AWS's defaults are read once, at the first reading after startup
        AWS.defaultQuota("us-east-1", P5, "training", 0);
        AWS.defaultQuota("us-east-1", G5, "training", 2);
        // an identity that may not call Service Quotas there: us-west-2's quotas are never read
        AWS.denyQuotas(WEST);
    }

    @Autowired
    CapacityService capacity;

    @DynamicPropertySource
    static void endpoints(DynamicPropertyRegistry registry) {
        registry.add("spillover.sagemaker.endpoint-override", AWS::endpoint);
        registry.add("spillover.sagemaker.quota-endpoint-override", AWS::endpoint);
    }

    /** The account as the issue describes it, p5 = 2 and p4d = 4 for training; trn1 listed at 0; m5 for processing. */
    @BeforeEach
    void account() {
        AWS.reset();
        AWS.quota("us-east-1", P5, "training", 2);
        AWS.quota("us-east-1", P4D, "training", 4);
        AWS.quota("us-east-1", M5, "training", 2);
        AWS.quota("us-east-1", M5, "processing", 1);
        AWS.quota("us-east-1", TRN1, "training", 0);
        refresh();
        // a capacity error of an earlier test marked it: an admin knows it is back
        capacity.liftMark(OfferingKey.onDemand("us-east-1", P5));
        capacity.liftMark(OfferingKey.onDemand("us-east-1", P4D));
    }

    @Test
    void aJobWanting2xP5Else4xP4dLaunches2xP5OnTheAccountsQuota() {
        String team = team(Map.of(P5, 4, P4D, 4));
        String name = providerName(submit(team, sageMakerJob("quota-p5", entry(P5, 2), entry(P4D, 4))), 1);

        JsonNode create = await().until(() -> AWS.requests("CreateTrainingJob", "TrainingJobName", name),
                l -> !l.isEmpty()).get(0);

        assertThat(create.get("ResourceConfig").get("InstanceType").asString()).isEqualTo(P5);
        assertThat(create.get("ResourceConfig").get("InstanceCount").asInt()).isEqualTo(2);
        assertThat(awaitStatus(team, "quota-p5", "STARTING", "RUNNING").get("selection").get("index").asInt())
                .isEqualTo(0);
    }

    @Test
    void aCapacityErrorOnP5MakesIt4xP4d() {
        AWS.noCapacityFor(P5);
        String team = team(Map.of(P5, 4, P4D, 4));
        JsonNode job = submit(team, sageMakerJob("spill", entry(P5, 2), entry(P4D, 4)));
        String second = providerName(job, 2);

        await().until(() -> AWS.job(second) != null);

        List<JsonNode> creates = AWS.requests("CreateTrainingJob");
        assertThat(creates).extracting(c -> c.get("ResourceConfig").get("InstanceType").asString() + " x "
                + c.get("ResourceConfig").get("InstanceCount").asInt()).containsExactly(P5 + " x 2", P4D + " x 4");
        assertThat(describe(team, "spill").get("selection").get("index").asInt()).isEqualTo(1);
        assertThat(offering(P5).get("unavailableCause").asString()).isEqualTo("an insufficient-capacity error");
    }

    @Test
    void whereQuotasCannotBeReadAJobIsCreatedAtOnceAndACapacityErrorFallsThroughToTheP4d() {
        AWS.noCapacityFor(P5);
        String team = team(Map.of(P5, 4, P4D, 4));

        JsonNode job = submit(team, sageMakerJob("unread", west(P5, 2), west(P4D, 4)));
        String first = providerName(job, 1);
        String second = providerName(job, 2);
        await().until(() -> AWS.job(second) != null);

        assertThat(AWS.requests("CreateTrainingJob", "TrainingJobName", first)).extracting(c -> c.get("ResourceConfig")
                .get("InstanceType").asString() + " x " + c.get("ResourceConfig").get("InstanceCount").asInt())
                .containsExactly(P5 + " x 2");
        assertThat(AWS.requests("CreateTrainingJob", "TrainingJobName", second)).extracting(c -> c.get("ResourceConfig")
                .get("InstanceType").asString() + " x " + c.get("ResourceConfig").get("InstanceCount").asInt())
                .containsExactly(P4D + " x 4");
        JsonNode p4d = offering(WEST, P4D);
        assertThat(p4d.get("limitSource").asString()).isEqualTo("unknown");
        assertThat(p4d.get("quotaUnknownBecause").asString()).startsWith("Service Quotas could not be read:")
                .contains("not authorized to perform: servicequotas:ListServiceQuotas");
        assertThat(offering(WEST, P5).get("unavailableCause").asString()).isEqualTo("an insufficient-capacity error");
        assertThat(reasons(awaitEvaluation(team, "unread")).get(1)).startsWith("selected; the account's service quota"
                + " for it is unknown (Service Quotas could not be read:").endsWith("), so it is tried");
        JsonNode health = api.as(null).get("/actuator/health").json();
        assertThat(health.get("status").asString()).isEqualTo("UP");
        assertThat(health.get("components").get("sagemaker").get("status").asString()).isEqualTo("QUOTAS_UNKNOWN");
    }

    @Test
    void whereQuotasCannotBeReadNoCountIsRefusedAsNeverRunnableAndARefusalTeachesTheLimit() {
        String team = team(Map.of(G6E, 64));
        AWS.failNext("CreateTrainingJob", 400, "ResourceLimitExceeded", "The account-level service limit"
                + " 'ml.g6e.48xlarge for training job usage' is 2 Instances, with current utilization of 0 Instances"
                + " and a request delta of 64 Instances. Please use AWS Service Quotas to request an increase.");

        submit(team, sageMakerJob("huge", west(G6E, 64)));
        JsonNode learned = await().until(() -> offering(WEST, G6E), o -> o.get("limitSource").asString()
                .equals("learned"));

        assertThat(learned.get("trainingQuota").asInt()).isEqualTo(2);
        assertThat(learned.get("total").asInt()).isEqualTo(2);
        expect(api.post("/api/v1/teams/" + team + "/jobs", sageMakerJob("huge-2", west(G6E, 64))), 201);
    }

    @Test
    void aJobWanting3xP5OnlyIsRefusedNamingTheEntryAndNothingIsStored() {
        String team = team(Map.of(P5, 4));

        JsonNode problem = expect(api.post("/api/v1/teams/" + team + "/jobs",
                sageMakerJob("too-big", entry(P5, 3))), 400).json();

        assertThat(errors(problem)).containsExactly("instancePreferences[0]: the account's applied service quota"
                + " 'ml.p5.48xlarge for training job usage' in us-east-1 is 2 instances, not 3; it can never run");
        assertThat(expect(api.get("/api/v1/teams/" + team + "/jobs"), 200).json().get("items")).isEmpty();
        assertThat(AWS.requests("CreateTrainingJob")).isEmpty();
    }

    @Test
    void anyEntryThatCanNeverRunIsRefusedEvenWhenAnotherCould() {
        String team = team(Map.of(P5, 4, G6E, 8, TRN1, 2, M5, 4));
        var body = sageMakerJob("mixed", entry(P5, 2), entry(G6E, 8), entry(TRN1, 1));
        var processing = sageMakerJob("prep", entry(M5, 2));
        processing.put("kind", "PROCESSING");

        JsonNode problem = expect(api.post("/api/v1/teams/" + team + "/jobs", body), 400).json();
        JsonNode refusedProcessing = expect(api.post("/api/v1/teams/" + team + "/jobs", processing), 400).json();

        assertThat(errors(problem)).containsExactly(
                "instancePreferences[1]: no offering of ml.g6e.48xlarge in us-east-1: the account's service quotas"
                        + " there list no 'ml.g6e.48xlarge for training job usage' and no fleet entry declares it;"
                        + " it can never run",
                "instancePreferences[2]: the account's applied service quota 'ml.trn1.32xlarge for training job"
                        + " usage' in us-east-1 is 0; it can never run");
        assertThat(errors(refusedProcessing)).containsExactly("instancePreferences[0]: the account's applied service"
                + " quota 'ml.m5.xlarge for processing job usage' in us-east-1 is 1 instances, not 2; it can never run");
    }

    @Test
    void anEntryThatCanNeverRunIsReportedBesideTheOtherBrokenRules() {
        String team = team(Map.of(P5, 1, G6E, 8));

        JsonNode problem = expect(api.post("/api/v1/teams/" + team + "/jobs",
                sageMakerJob("two-wrongs", entry(P5, 2), entry(G6E, 8))), 400).json();

        assertThat(errors(problem)).containsExactlyInAnyOrder(
                "instancePreferences[0].instanceCount: team quota for ml.p5.48xlarge allows 1 instances, not 2",
                "instancePreferences[1]: no offering of ml.g6e.48xlarge in us-east-1: the account's service quotas"
                        + " there list no 'ml.g6e.48xlarge for training job usage' and no fleet entry declares it;"
                        + " it can never run");
    }

    @Test
    void aBatchItemThatCanNeverRunRefusesTheBatchNamingTheItemsEntry() {
        String team = team(Map.of(P5, 4, P4D, 8));
        var batch = List.of(sageMakerJob("fits", entry(P4D, 4)), sageMakerJob("never", entry(P5, 2), entry(P4D, 8)));

        JsonNode problem = expect(api.post("/api/v1/teams/" + team + "/jobs:batch", Map.of("jobs", batch)), 400).json();

        assertThat(errors(problem)).containsExactly("jobs[1].instancePreferences[1]: the account's applied service"
                + " quota 'ml.p4d.24xlarge for training job usage' in us-east-1 is 4 instances, not 8; it can never run");
        assertThat(expect(api.get("/api/v1/teams/" + team + "/jobs"), 200).json().get("items")).isEmpty();
    }

    @Test
    void anEntryFullOnlyForNowWaitsAndRunsWhenTheOutsideJobEnds() {
        AWS.outsideJob("someone-elses-run", P5, 2);
        refresh();
        JsonNode p5 = offering(P5);
        assertThat(p5.get("limitSource").asString()).isEqualTo("quota");
        assertThat(p5.get("trainingQuota").asInt()).isEqualTo(2);
        assertThat(p5.get("outsideUse").asInt()).isEqualTo(2);
        assertThat(p5.get("total").asInt()).isZero();
        String team = team(Map.of(P5, 4));

        JsonNode job = submit(team, sageMakerJob("patient", entry(P5, 2)));
        assertThat(reasons(awaitEvaluation(team, "patient")))
                .containsExactly("on-demand ml.p5.48xlarge in us-east-1 has no instances");
        AWS.move("someone-elses-run", "Completed", "Completed", "Training job completed");
        refresh();

        String name = providerName(job, 1);
        await().until(() -> AWS.job(name) != null);
        assertThat(offering(P5).get("outsideUse").asInt()).isZero();
    }

    @Test
    void aLimitSageMakerStatesWhenItRefusesIsLearnedUntilTheNextReading() {
        AWS.failNext("CreateTrainingJob", 400, "ResourceLimitExceeded", "The account-level service limit"
                + " 'ml.p4d.24xlarge for training job usage' is 3 Instances, with current utilization of 0 Instances"
                + " and a request delta of 4 Instances. Please use AWS Service Quotas to request an increase.");
        String team = team(Map.of(P4D, 4));
        submit(team, sageMakerJob("learner", entry(P4D, 4)));
        JsonNode learned = await().until(() -> offering(P4D), o -> o.get("limitSource").asString().equals("learned")
                && !o.get("unavailableCause").isNull());
        JsonNode problem = expect(api.post("/api/v1/teams/" + team + "/jobs",
                sageMakerJob("learner-2", entry(P4D, 4))), 400).json();

        assertThat(learned.get("trainingQuota").asInt()).isEqualTo(3);
        assertThat(learned.get("total").asInt()).isEqualTo(3);
        assertThat(learned.get("unavailableCause").asString()).isEqualTo("the account's service quota for it was reached");
        assertThat(errors(problem)).containsExactly("instancePreferences[0]: the account's service quota"
                + " 'ml.p4d.24xlarge for training job usage' in us-east-1, as the provider stated it, is 3 instances,"
                + " not 4; it can never run");
        refresh();
        assertThat(offering(P4D).get("limitSource").asString()).isEqualTo("quota");
        assertThat(offering(P4D).get("trainingQuota").asInt()).isEqualTo(4);
    }

    @Test
    void capacityShowsEachLimitsSourceAndFiguresReadAcrossPages() {
        JsonNode p4d = offering(P4D);
        JsonNode m5 = offering(M5);

        assertThat(p4d.get("limitSource").asString()).isEqualTo("quota");
        assertThat(p4d.get("trainingQuota").asInt()).isEqualTo(4);
        assertThat(p4d.get("processingQuota").isNull()).isTrue();
        assertThat(p4d.get("outsideUse").asInt()).isZero();
        assertThat(p4d.get("total").asInt()).isEqualTo(4);
        assertThat(m5.get("trainingQuota").asInt()).isEqualTo(2);
        assertThat(m5.get("processingQuota").asInt()).isEqualTo(1);
        assertThat(m5.get("total").asInt()).isEqualTo(2);
        // seven quotas, two a page: a refresh reads four pages of us-east-1, following NextToken, then is refused
        // the first of us-west-2
        List<String> tokens = new ArrayList<>();
        AWS.quotaRequests().forEach(r -> tokens.add(r.path("NextToken").asString("-")));
        assertThat(tokens).containsExactly("-", "2", "4", "6", "-");
        assertThat(AWS.quotaRequests()).allSatisfy(r -> assertThat(r.get("ServiceCode").asString())
                .isEqualTo("sagemaker"));
    }

    @Test
    void aTypeWhoseAppliedQuotaIsNotListedTakesAwsDefaultAndAnAppliedQuotaWinsOverIt() {
        JsonNode defaulted = offering(G5);
        JsonNode applied = offering(P5);

        assertThat(defaulted.get("limitSource").asString()).isEqualTo("quota");
        assertThat(defaulted.get("trainingQuota").asInt()).isEqualTo(2);
        assertThat(defaulted.get("total").asInt()).isEqualTo(2);
        assertThat(applied.get("trainingQuota").asInt()).isEqualTo(2);
    }

    @Test
    void theConsolesCapacityViewSaysWhereTheLimitCameFrom() {
        String team = team(Map.of(P4D, 4));
        String username = "viewer-" + team;
        expect(api.put("/api/v1/admin/users/" + username, Map.of("displayName", "A Viewer", "password",
                "a-console-password-42")), 201);
        expect(api.put("/api/v1/admin/users/" + username + "/memberships/" + team, Map.of("role", "MEMBER")), 200);
        var browser = new ConsoleSession(port());
        browser.signIn(username, "a-console-password-42");

        String dashboard = browser.get("/").body();

        assertThat(dashboard).contains("<td>ml.p4d.24xlarge</td>")
                .contains("service quota: training 4, processing –, 0 in use outside Spillover");
    }

    @Test
    void aRefreshThatCanReadNoRegionIs503AndLeavesCapacityAsItWas() {
        AWS.failNext("ListServiceQuotas", 400, "AccessDeniedException", "User: arn:aws:sts::111122223333:"
                + "assumed-role/Spillover is not authorized to perform: servicequotas:ListServiceQuotas");
        AWS.quota("us-east-1", P5, "training", 8);

        JsonNode problem = expect(api.post("/api/v1/admin/capacity/refresh", Map.of()), 503).json();

        assertThat(problem.get("detail").asString()).contains("no served region's service quotas could be read")
                .contains("not authorized to perform: servicequotas:ListServiceQuotas");
        assertThat(offering(P5).get("total").asInt()).isEqualTo(2);
    }

    @Test
    void onlyAPlatformAdminRefreshes() {
        String team = team(Map.of(P5, 1));
        String token = expect(api.post("/api/v1/teams/" + team + "/tokens", Map.of("name", "ci", "role",
                "TEAM_ADMIN")), 201).json().get("secret").asString();

        expect(api.as(token).post("/api/v1/admin/capacity/refresh", Map.of()), 403);
    }

    private void refresh() {
        JsonNode result = expect(api.post("/api/v1/admin/capacity/refresh", Map.of()), 200).json();
        assertThat(result.get("regionsRead").toString()).isEqualTo("[\"us-east-1\"]");
    }

    private static Map<String, Object> sageMakerJob(String name, Map<String, Object>... entries) {
        var body = job(name, entries);
        body.remove("local");
        body.put("container", Map.of("image", IMAGE));
        return body;
    }

    private static String providerName(JsonNode job, int attempt) {
        return "spl-" + job.get("id").asString().replace("-", "") + "-" + attempt;
    }

    private static List<String> errors(JsonNode problem) {
        var errors = new ArrayList<String>();
        problem.get("errors").forEach(e -> errors.add(e.get("field").asString() + ": " + e.get("message").asString()));
        return errors;
    }

    private static Map<String, Object> west(String instanceType, int count) {
        return Map.of("instanceType", instanceType, "instanceCount", count, "region", WEST);
    }

    private JsonNode offering(String instanceType) {
        return offering("us-east-1", instanceType);
    }

    private JsonNode offering(String region, String instanceType) {
        for (JsonNode offering : expect(api.get("/api/v1/capacity"), 200).json()) {
            if (offering.get("instanceType").asString().equals(instanceType)
                    && offering.get("region").asString().equals(region)
                    && offering.get("source").asString().equals("on-demand")) {
                return offering;
            }
        }
        throw new AssertionError("no offering of " + instanceType);
    }
}
