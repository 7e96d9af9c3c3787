package io.spillover.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.spillover.support.Api;
import io.spillover.support.ApiTest;
import java.io.BufferedReader;
import java.io.PrintWriter;
import java.io.StringReader;
import java.io.StringWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sagemaker.SageMakerClient;
import tools.jackson.databind.JsonNode;

/**
 * The {@code spillover} CLI against a running service: each command is run in-process through its entry point,
 * as a pipeline would run it, with its own home directory, environment and captured output; the jobs run on the
 * local provider.
 */
class CliTest extends ApiTest {

    static final String G5 = "ml.g5.12xlarge";

    @org.springframework.beans.factory.annotation.Autowired
    io.spillover.tenancy.DemoTeams demoTeams;

    @TempDir
    Path home;
    private String team;
    private String token;
    private final Map<String, String> env = new HashMap<>();

    /** One run of the CLI: its exit status and what it printed. */
    record Run(int exit, String out, String err) {
        JsonNode json() {
            return Api.JSON.readTree(out);
        }
    }

    @BeforeEach
    void aTeamWithATokenAndCapacity() {
        capacity(G5, 2);
        team = team(Map.of(G5, 2));
        token = expect(api.post("/api/v1/teams/" + team + "/tokens", Map.of("name", "pipeline", "role", "MEMBER")), 201)
                .json().get("secret").asString();
    }

    /** Another team's job takes the only instance of the type, so a job wanting it waits with a reason. */
    private void occupy(String instanceType) {
        capacity(instanceType, 1);
        String other = team(Map.of(instanceType, 1));
        submit(other, job("holder", entry(instanceType, 1)));
        awaitStatus(other, "holder", "RUNNING");
    }

    /**
     * A team admin makes a token with an access key through the CLI; unchanged AWS SDK code signs with it, and the
     * job it makes through the SageMaker endpoint is the job {@code spillover describe} shows.
     */
    @Test
    void tokenWithAnAccessKeyMadeHereSignsSageMakerCallsWhoseJobTheCliDescribes() {
        token = expect(api.post("/api/v1/teams/" + team + "/tokens", Map.of("name", "admin", "role", "TEAM_ADMIN")),
                201).json().get("secret").asString();
        login();

        Run made = cli("token", "sdk", "--access-key", "-o", "json");
        JsonNode key = made.json();
        try (var sagemaker = SageMakerClient.builder()
                .endpointOverride(URI.create(url() + "/sagemaker"))
                .region(Region.EU_CENTRAL_1)
                .credentialsProvider(StaticCredentialsProvider.create(
                        AwsBasicCredentials.create(
                                key.get("accessKeyId").asString(), key.get("secretAccessKey").asString())))
                .build()) {
            sagemaker.createTrainingJob(r -> r.trainingJobName("from-sdk").roleArn("arn:aws:iam::111122223333:role/R")
                    .outputDataConfig(o -> o.s3OutputPath("s3://bucket/out"))
                    .algorithmSpecification(a -> a.trainingImage("image:1").trainingInputMode("File"))
                    .resourceConfig(c -> c.instanceType(G5).instanceCount(1).volumeSizeInGB(10)));
        }
        Run text = cli("token", "plain");
        JsonNode described = cli("describe", "from-sdk", "-o", "json").json();

        assertThat(made.exit()).as(made.err()).isZero();
        assertThat(key.get("accessKeyId").asString()).matches("SPLK[A-Z2-7]{16}");
        assertThat(key.get("secretAccessKey").asString()).hasSize(40);
        assertThat(text.out()).startsWith("token:             spl_").doesNotContain("access key id");
        assertThat(described.get("name").asString()).isEqualTo("from-sdk");
        assertThat(described.get("kind").asString()).isEqualTo("TRAINING");
        assertThat(described.get("instancePreferences").get(0).get("instanceType").asString()).isEqualTo(G5);
        assertThat(expect(api.get("/api/v1/teams/" + team + "/tokens"), 200).json().findValuesAsString("accessKeyId"))
                .containsExactly(key.get("accessKeyId").asString());
    }

    private Run cli(String... args) {
        return cliWithInput("", args);
    }

    private Run cliWithInput(String stdin, String... args) {
        return run(stdin, false, args);
    }

    /** As a person at a terminal runs it. */
    private Run cliOnTerminal(String... args) {
        return run("", true, args);
    }

    private Run run(String stdin, boolean terminal, String... args) {
        var out = new StringWriter();
        var err = new StringWriter();
        var invocation = new Invocation(Map.copyOf(env), home, new BufferedReader(new StringReader(stdin)),
                new PrintWriter(out, true), new PrintWriter(err, true), terminal);
        int exit = SpilloverCli.run(invocation, args);
        return new Run(exit, out.toString(), err.toString());
    }

    private String url() {
        return "http://localhost:" + port();
    }

    private void login() {
        assertThat(cli("login", "--url", url(), "--token", token).exit()).isZero();
    }

    private String jobFile(String name, String text) throws Exception {
        Path file = home.resolve(name);
        Files.writeString(file, text);
        return file.toString();
    }

    /** A YAML job on one G5 that the local provider simulates for {@code runtime} seconds, ending with {@code exit}. */
    private String yamlJob(String name, int runtime, int exit) throws Exception {
        return jobFile(name + ".yaml", """
                name: %s
                kind: TRAINING
                instancePreferences:
                  - instanceType: ml.g5.12xlarge
                    instanceCount: 1
                local:
                  runtimeSeconds: %d
                  exitCode: %d
                """.formatted(name, runtime, exit));
    }

    /**
     * {@code spillover demo} as a platform admin: it starts the demo and prints what it says, line by line from the
     * demo's event stream, until the demo is over; {@code --stop} ends it (and its jobs), which ends the following
     * command too. A team's token is refused with the API's 403.
     */
    @Test
    void demoPrintsWhatTheDemoSaysUntilItIsStoppedAndOnlyForAPlatformAdmin() throws Exception {
        demoTeams.seed();
        capacity("ml.p5.48xlarge", 1);
        capacity("ml.p4d.24xlarge", 4);
        capacity("ml.p4de.24xlarge", 2);
        capacity("ml.g6e.48xlarge", 4);
        env.put("SPILLOVER_URL", url());
        env.put("SPILLOVER_TOKEN", token);
        Run refused = cli("demo");
        env.put("SPILLOVER_TOKEN", ADMIN_TOKEN);
        try {
            CompletableFuture<Run> following = CompletableFuture.supplyAsync(() -> cli("demo"));
            await().atMost(Duration.ofSeconds(20)).until(() -> api.get("/api/v1/admin/demo").json().get("lines")
                    .toString().contains("fell back to entry 1"));
            Run stopped = cli("demo", "--stop");
            Run followed = following.get(20, java.util.concurrent.TimeUnit.SECONDS);

            assertThat(refused.exit()).isEqualTo(ExitCode.API_ERROR.code);
            assertThat(refused.err()).contains("(HTTP 403)");
            assertThat(stopped.exit()).isZero();
            assertThat(stopped.out()).containsPattern("demo [0-9a-z]+: STOPPED");
            assertThat(followed.exit()).isZero();
            assertThat(followed.out()).contains("+0:00  The demo starts: 8 jobs", "fell back to entry 1",
                    "Stopped by token:").containsPattern("(?m)^demo [0-9a-z]+: STOPPED$");
            assertThat(cli("demo", "--stop", "-o", "json").json().get("status").asString()).isEqualTo("STOPPED");
        } finally {
            api.post("/api/v1/admin/demo:stop", Map.of());
        }
    }

    @Test
    void loginChecksTheTokenAndSavesItInAConfigFileOnlyItsOwnerCanRead() throws Exception {
        Run run = cli("login", "--url", url(), "--token", token);

        assertThat(run.exit()).isZero();
        assertThat(run.out()).contains("signed in to " + url(), "team " + team, "profile default");
        Path config = home.resolve(".spillover/config");
        assertThat(Files.readString(config)).contains("[default]", "url = " + url(), "token = " + token,
                "team = " + team);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(config))).isEqualTo("rw-------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(config.getParent())))
                .isEqualTo("rwx------");
    }

    @Test
    void loginReadsTheTokenFromStandardInputAndKeepsOtherProfiles() throws Exception {
        login();

        Run run = cliWithInput(token + "\n", "login", "--profile", "ci", "--url", url());

        assertThat(run.exit()).isZero();
        String config = Files.readString(home.resolve(".spillover/config"));
        assertThat(config).contains("[default]", "[profile ci]");
        assertThat(cli("jobs", "--profile", "ci").exit()).isZero();
    }

    @Test
    void aRefusedTokenIsAnApiErrorAndNothingIsSaved() {
        Run run = cli("login", "--url", url(), "--token", "not-a-token-of-anyone");

        assertThat(run.exit()).isEqualTo(ExitCode.API_ERROR.code);
        assertThat(run.err()).startsWith("error: ").contains("(HTTP 401)");
        assertThat(home.resolve(".spillover/config")).doesNotExist();
    }

    @Test
    void withoutLoginOrEnvironmentACommandSaysHowToConnect() {
        Run run = cli("jobs");

        assertThat(run.exit()).isEqualTo(ExitCode.USAGE.code);
        assertThat(run.err()).contains("no Spillover URL", "spillover login", "SPILLOVER_URL");
    }

    @Test
    void theEnvironmentConnectsWithoutAConfigFile() throws Exception {
        env.put("SPILLOVER_URL", url());
        env.put("SPILLOVER_TOKEN", token);
        env.put("SPILLOVER_TEAM", team);

        Run run = cli("submit", "-f", yamlJob("from-env", 3600, 0));

        assertThat(run.exit()).isZero();
        assertThat(run.out()).contains("submitted from-env", "team " + team);
        assertThat(describe(team, "from-env").get("status").asString()).isIn("PENDING", "STARTING", "RUNNING");
        Run jobs = cli("jobs");
        assertThat(jobs.exit()).isZero();
        assertThat(jobs.out()).startsWith("NAME").contains("from-env", "page 0 of 1, 1 jobs");
    }

    @Test
    void submitWaitsUntilTheJobCompletesAndExitsZero() throws Exception {
        login();

        Run run = cli("submit", "-f", yamlJob("train-ok", 0, 0), "--wait", "--interval", "20ms");

        assertThat(run.exit()).isEqualTo(ExitCode.OK.code);
        assertThat(run.out().strip()).startsWith("train-ok COMPLETED on entry 0: 1 × ml.g5.12xlarge in us-east-1");
        assertThat(run.err()).contains("submitted train-ok to team " + team, "→ STARTING", "→ COMPLETED");
        assertThat(describe(team, "train-ok").get("status").asString()).isEqualTo("COMPLETED");
    }

    @Test
    void aJobThatFailsEndsTheWaitWithExitOneAndTheReason() throws Exception {
        login();

        Run run = cli("submit", "-f", yamlJob("train-crash", 0, 3), "--wait", "--interval", "20ms");

        assertThat(run.exit()).isEqualTo(ExitCode.FAILED.code);
        assertThat(run.out()).contains("train-crash FAILED (NONZERO_EXIT)");
    }

    @Test
    void whileAJobWaitsItsEvaluationsSayWhyEachEntryDoesNotFitAndAStopEndsTheWaitWithExitThree() throws Exception {
        occupy(G5);
        login();
        String file = jobFile("waits.json", """
                {"name": "waits", "kind": "TRAINING", "instanceCount": 1,
                 "instancePreferences": [{"instanceType": "ml.g5.12xlarge"}]}""");
        var out = new StringWriter();
        var err = new StringWriter();
        var invocation = new Invocation(Map.of(), home, new BufferedReader(new StringReader("")),
                new PrintWriter(out, true), new PrintWriter(err, true), false);
        CompletableFuture<Integer> waiting = CompletableFuture.supplyAsync(() ->
                SpilloverCli.run(invocation, "submit", "-f", file, "--wait", "--interval", "20ms"));

        await().atMost(Duration.ofSeconds(10)).until(() -> err.toString().contains("no entry fits now"));
        assertThat(err.toString()).contains("entry 0 1 × ml.g5.12xlarge in us-east-1, on-demand: on-demand "
                + "ml.g5.12xlarge in us-east-1 has 0 of 1 instances free, 1 needed");
        Run stop = cli("stop", "waits", "--wait", "--interval", "20ms");

        assertThat(stop.exit()).isZero();
        assertThat(stop.out()).contains("waits STOPPED (STOPPED_BY_USER)");
        assertThat(waiting.get()).isEqualTo(ExitCode.STOPPED.code);
        assertThat(out.toString()).contains("waits STOPPED (STOPPED_BY_USER)");
    }

    @Test
    void aJobWhosePendingTimeRunsOutExitsFour() throws Exception {
        occupy(G5);
        login();
        String file = jobFile("impatient.yaml", """
                name: impatient
                kind: TRAINING
                instanceCount: 1
                instancePreferences: [{instanceType: ml.g5.12xlarge}]
                maxPendingTimeInSeconds: 1
                """);

        Run run = cli("submit", "-f", file, "--wait", "--interval", "50ms");

        assertThat(run.exit()).isEqualTo(ExitCode.PENDING_TIME_EXPIRED.code);
        assertThat(run.out()).contains("impatient STOPPED (MAX_PENDING_TIME_EXCEEDED)");
    }

    @Test
    void waitFollowsAJobSubmittedEarlierOnItsEventStreamAndExitsWithItsOutcome() throws Exception {
        occupy(G5);
        login();
        String file = jobFile("later.yaml", """
                name: later
                kind: TRAINING
                instanceCount: 1
                instancePreferences: [{instanceType: ml.g5.12xlarge}]
                maxPendingTimeInSeconds: 1
                """);
        assertThat(cli("submit", "-f", file).exit()).isEqualTo(ExitCode.OK.code);

        Run run = cli("wait", "later");

        assertThat(run.exit()).isEqualTo(ExitCode.PENDING_TIME_EXPIRED.code);
        assertThat(run.err()).contains("later ", "PENDING (SUBMITTED)", "PENDING → STOPPED (MAX_PENDING_TIME_EXCEEDED)");
        assertThat(run.out()).contains("later STOPPED (MAX_PENDING_TIME_EXCEEDED)");
        assertThat(cli("wait", "later", "--timeout", "5s").exit()).as("a job that has ended answers at once")
                .isEqualTo(ExitCode.PENDING_TIME_EXPIRED.code);
        assertThat(cli("wait", "no-such-job").exit()).isEqualTo(ExitCode.API_ERROR.code);
    }

    @Test
    void waitingLongerThanTheTimeoutExitsSixAndLeavesTheJobWaiting() throws Exception {
        occupy(G5);
        login();

        Run run = cli("submit", "-f", yamlJob("long-wait", 0, 0), "--wait", "--timeout", "200ms",
                "--interval", "20ms");

        assertThat(run.exit()).isEqualTo(ExitCode.WAIT_TIMEOUT.code);
        assertThat(run.err()).contains("gave up waiting", "long-wait is still PENDING");
        assertThat(describe(team, "long-wait").get("status").asString()).isEqualTo("PENDING");
    }

    @Test
    void onATerminalTheWaitShowsAStatusLineThatRedrawsItselfAndElsewherePlainLines() throws Exception {
        occupy(G5);
        login();

        Run terminal = cliOnTerminal("submit", "-f", yamlJob("watched", 0, 0), "--wait", "--timeout", "300ms",
                "--interval", "20ms");
        Run pipeline = cli("submit", "-f", yamlJob("logged", 0, 0), "--wait", "--timeout", "300ms",
                "--interval", "20ms");

        assertThat(terminal.err()).contains("\r\u001b[2Kwatched  PENDING  ");
        assertThat(pipeline.err()).doesNotContain("\r", "\u001b").contains("logged", "PENDING (SUBMITTED)");
    }

    @Test
    void everyAnswerComesAsTheApisJsonWithOutputJson() throws Exception {
        login();
        Run submitted = cli("submit", "-f", yamlJob("as-json", 3600, 0), "--output", "json");

        assertThat(submitted.exit()).isZero();
        assertThat(submitted.json().get("name").asString()).isEqualTo("as-json");
        assertThat(submitted.json().get("team").asString()).isEqualTo(team);

        JsonNode page = cli("jobs", "-o", "json").json();
        assertThat(page.get("items").get(0).get("name").asString()).isEqualTo("as-json");
        assertThat(page.get("totalItems").asInt()).isEqualTo(1);

        JsonNode described = cli("describe", "as-json", "-o", "json").json();
        assertThat(described.get("transitions").isArray()).isTrue();

        JsonNode stopped = cli("stop", "as-json", "--wait", "--interval", "20ms", "-o", "json").json();
        assertThat(stopped.get("status").asString()).isEqualTo("STOPPED");
        assertThat(cli("jobs", "--status", "stopped", "-o", "json").json().get("items").size()).isEqualTo(1);
        assertThat(cli("jobs", "--status", "running", "-o", "json").json().get("items").size()).isZero();

        Run unknown = cli("describe", "nope", "-o", "json");
        assertThat(unknown.exit()).isEqualTo(ExitCode.API_ERROR.code);
        assertThat(unknown.json().get("status").asInt()).isEqualTo(404);
    }

    @Test
    void aFileThatIsNotAJobIsAUsageErrorNamingTheProblemAndSubmitsNothing() throws Exception {
        login();

        Run missing = cli("submit", "-f", home.resolve("absent.yaml").toString());
        Run broken = cli("submit", "-f", jobFile("broken.yaml", "name: broken\n  kind: TRAINING\n"));
        Run list = cli("submit", "-f", jobFile("list.json", "[{\"name\": \"a\"}]"));
        Run noFile = cli("submit");

        assertThat(missing.exit()).isEqualTo(ExitCode.USAGE.code);
        assertThat(missing.err()).contains("absent.yaml: no such file");
        assertThat(broken.exit()).isEqualTo(ExitCode.USAGE.code);
        assertThat(broken.err()).contains("broken.yaml: not valid YAML at line 2, column 7",
                "mapping values are not allowed here");
        assertThat(list.exit()).isEqualTo(ExitCode.USAGE.code);
        assertThat(list.err()).contains("list.json: expected a job as a JSON object", "found a list");
        assertThat(noFile.exit()).isEqualTo(ExitCode.USAGE.code);
        assertThat(noFile.err()).contains("Missing required option: '--file=FILE'");
        assertThat(cli("jobs", "-o", "json").json().get("totalItems").asInt()).isZero();
    }

    @Test
    void aJobTheServiceRefusesIsAnApiErrorWithTheProblemsFieldErrors() throws Exception {
        login();
        String file = jobFile("unknown-type.yaml", """
                name: unknown-type
                kind: TRAINING
                instancePreferences: [{instanceType: ml.nothing.large, instanceCount: 1}]
                """);

        Run run = cli("submit", "-f", file);

        assertThat(run.exit()).isEqualTo(ExitCode.API_ERROR.code);
        assertThat(run.err()).startsWith("error: ").contains("(HTTP 400)",
                "  instancePreferences[0].instanceType: ");
    }

    @Test
    void describingAJobTheTeamDoesNotHaveIsAnApiErrorWithTheProblemsDetail() {
        login();

        Run run = cli("describe", "no-such-job");

        assertThat(run.exit()).isEqualTo(ExitCode.API_ERROR.code);
        assertThat(run.err()).contains("error: team " + team + " has no job no-such-job (HTTP 404)");
        assertThat(run.out()).isEmpty();
    }

    @Test
    void aServiceThatCannotBeReachedIsAnApiError() throws Exception {
        int closed;
        try (var socket = new java.net.ServerSocket(0)) {
            closed = socket.getLocalPort();
        }
        env.put("SPILLOVER_URL", "http://localhost:" + closed);
        env.put("SPILLOVER_TOKEN", token);
        env.put("SPILLOVER_TEAM", team);

        Run run = cli("jobs");

        assertThat(run.exit()).isEqualTo(ExitCode.API_ERROR.code);
        assertThat(run.err()).contains("error: cannot reach Spillover at http://localhost:" + closed
                + ": connection refused");
    }

    @Test
    void describeShowsTheJobAndWhyAWaitingJobWaits() throws Exception {
        occupy(G5);
        login();
        cli("submit", "-f", yamlJob("described", 0, 0));
        awaitEvaluation(team, "described");

        Run run = cli("describe", "described");

        assertThat(run.exit()).isZero();
        assertThat(run.out()).contains("described (team " + team + ", TRAINING)", "status        PENDING",
                "preferences   0: 1 × ml.g5.12xlarge in us-east-1", "no entry fits now",
                "has 0 of 1 instances free, 1 needed");
    }

    @Test
    void submitOptsAJobInToPreemptionAndDescribeAndTheListMarkWhatItBorrows() throws Exception {
        capacity(G5, 3);
        expect(api.put("/api/v1/admin/teams/" + team, Map.of("displayName", "CLI",
                "sharing", Map.of("strategy", "LEND_AND_BORROW"))), 200);
        login();
        String file = jobFile("borrows.yaml", """
                name: borrows
                kind: TRAINING
                instancePreferences:
                  - instanceType: ml.g5.12xlarge
                    instanceCount: 3
                local:
                  runtimeSeconds: 3600
                """);

        assertThat(cli("submit", "-f", file, "--preemptible").exit()).isZero();
        awaitStatus(team, "borrows", "RUNNING");

        assertThat(cli("describe", "borrows").out()).contains(
                "selection     entry 0: 3 × ml.g5.12xlarge in us-east-1, on-demand, 1 borrowed",
                "preemption    preemptible (resumes from its checkpoint), preempted 0 times");
        assertThat(cli("jobs").out()).contains("3 × ml.g5.12xlarge (entry 0, 1 borrowed)");
    }

    @Test
    void aWaitingJobsEstimatedStartShowsInDescribeTheListAndTheWaitsStatusLine() throws Exception {
        occupy(G5);
        login();
        cli("submit", "-f", yamlJob("estimated", 0, 0));
        JsonNode estimate = await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
                .until(() -> describe(team, "estimated").get("estimatedStart"), e -> e != null && !e.isNull());
        String p50 = estimate.get("p50").asString();

        Run described = cli("describe", "estimated");
        Run listed = cli("jobs");
        Run waited = cliOnTerminal("wait", "estimated", "--timeout", "1s");

        assertThat(described.out()).contains("estimated     most likely " + p50 + " (p10 ",
                "on entry 0: first in line on ml.g5.12xlarge; 1 running there ends in ~");
        assertThat(listed.out()).contains("LIKELY START").containsPattern("estimated +PENDING .* " + p50);
        assertThat(waited.exit()).isEqualTo(ExitCode.WAIT_TIMEOUT.code);
        assertThat(waited.err()).contains("estimated estimated start ", ": most likely " + p50,
                "\r\u001b[2Kestimated  PENDING  ").containsPattern("PENDING  [^\\r]*  likely start " + p50);
    }

    @Test
    void logsFollowsTheJobsOutputUntilItEnds() throws Exception {
        login();
        String file = jobFile("echo.json", """
                {"name": "echo", "kind": "TRAINING", "instanceCount": 1,
                 "instancePreferences": [{"instanceType": "ml.g5.12xlarge"}],
                 "container": {"command": ["sh", "-c", "echo first line; echo on $SPILLOVER_INSTANCE_TYPE"]}}""");
        cli("submit", "-f", file);

        Run run = cli("logs", "echo", "--follow", "--interval", "20ms");

        assertThat(run.exit()).isZero();
        assertThat(run.out()).contains("first line\n", "on ml.g5.12xlarge\n");
        assertThat(describe(team, "echo").get("status").asString()).isEqualTo("COMPLETED");
    }

    @Test
    void explainSaysWhereASubmittedJobWouldGoNowAndWhyNotElsewhere() throws Exception {
        occupy("ml.g6.48xlarge");
        login();
        String file = jobFile("two-entries.yaml", """
                name: two-entries
                kind: TRAINING
                instanceCount: 1
                instancePreferences: [{instanceType: ml.g6.48xlarge}, {instanceType: ml.g5.12xlarge}]
                local: {runtimeSeconds: 3600}
                """);
        expect(api.put("/api/v1/admin/teams/" + team + "/quotas",
                Map.of("instanceLimits", Map.of(G5, 2, "ml.g6.48xlarge", 1))), 200);

        Run beforehand = cli("explain", "-f", file);
        cli("submit", "-f", file);
        awaitStatus(team, "two-entries", "RUNNING");
        Run afterwards = cli("explain", "two-entries", "-o", "json");

        assertThat(beforehand.exit()).isZero();
        assertThat(beforehand.out()).contains("entry 1 fits",
                "entry 0 1 × ml.g6.48xlarge in us-east-1, on-demand: on-demand ml.g6.48xlarge in us-east-1 has 0 of 1"
                        + " instances free, 1 needed",
                "entry 1 1 × ml.g5.12xlarge in us-east-1, on-demand: selected");
        assertThat(afterwards.exit()).isZero();
        assertThat(afterwards.json().get("outcome").asString()).isEqualTo("SELECTED");
        assertThat(afterwards.json().get("entries")).hasSize(2);
    }

    @Test
    void profilesListsTheTeamsProfiles() {
        expect(api.put("/api/v1/teams/" + team + "/profiles/g5-sweep", Map.of("kind", "TRAINING", "instanceCount", 1,
                "instancePreferences", List.of(Map.of("instanceType", G5)))), 201);
        login();

        Run text = cli("profiles");
        Run json = cli("profiles", "-o", "json");

        assertThat(text.exit()).isZero();
        assertThat(text.out()).contains("g5-sweep", "1 × ml.g5.12xlarge");
        assertThat(json.json().get(0).get("name").asString()).isEqualTo("g5-sweep");
    }

    @Test
    void helpListsTheCommandsAndTheExitCodes() {
        Run run = cli("--help");

        assertThat(run.exit()).isZero();
        assertThat(run.out()).contains("login", "submit", "jobs", "describe", "logs", "stop", "explain", "profiles",
                "Exit codes:", " 4  the job's maximum pending time passed", " 6  --timeout passed");
        assertThat(cli("no-such-command").exit()).isEqualTo(ExitCode.USAGE.code);
    }
}
