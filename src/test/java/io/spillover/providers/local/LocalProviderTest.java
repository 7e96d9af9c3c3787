package io.spillover.providers.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillover.support.ApiTest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Jobs run by the local provider: real processes or simulations, their ends, stops, limits and logs. */
class LocalProviderTest extends ApiTest {

    static final String G5 = "ml.g5.12xlarge";

    private String team;

    @BeforeEach
    void aTeamWithCapacity() {
        capacity(G5, 2);
        team = team(Map.of(G5, 2));
    }

    @Test
    void runsTheCommandAsAProcessWithItsSelectionInTheEnvironmentAndKeepsItsOutput() {
        var body = job("echo", entry(G5, 2));
        body.put("container", Map.of("command", List.of("sh", "-c",
                        "echo type=$SPILLOVER_INSTANCE_TYPE count=$SPILLOVER_INSTANCE_COUNT name=$SPILLOVER_JOB_NAME"
                                + " epochs=$EPOCHS"),
                "environment", Map.of("EPOCHS", "3")));
        submit(team, body);

        JsonNode completed = awaitStatus(team, "echo", "COMPLETED");

        assertThat(completed.get("statusMessage").asString()).isEqualTo("exited with code 0");
        assertThat(logs("echo")).contains("type=ml.g5.12xlarge count=2 name=echo epochs=3");
    }

    @Test
    void aCommandExitingNonZeroFailsTheJob() {
        var body = job("crash", entry(G5, 1));
        body.put("container", Map.of("command", List.of("sh", "-c", "echo oops >&2; exit 3")));
        submit(team, body);

        JsonNode failed = awaitStatus(team, "crash", "FAILED");

        assertThat(failed.get("statusReason").asString()).isEqualTo("NONZERO_EXIT");
        assertThat(failed.get("statusMessage").asString()).isEqualTo("exited with code 3");
        assertThat(logs("crash")).contains("oops");
        assertThat(usedInstances()).isZero();
    }

    @Test
    void aCommandThatCannotStartFailsTheJobWithTheProvidersMessage() {
        var body = job("missing", entry(G5, 1));
        body.put("container", Map.of("command", List.of("/no/such/program")));
        submit(team, body);

        JsonNode failed = awaitStatus(team, "missing", "FAILED");

        assertThat(failed.get("statusReason").asString()).isEqualTo("PROVIDER_ERROR");
        assertThat(failed.get("statusMessage").asString()).contains("/no/such/program");
        assertThat(usedInstances()).isZero();
    }

    @Test
    void aSimulatedJobEndsWithItsExitCode() {
        var body = job("simulated", entry(G5, 1));
        body.put("local", Map.of("runtimeSeconds", 0, "exitCode", 2));
        submit(team, body);

        JsonNode failed = awaitStatus(team, "simulated", "FAILED");

        assertThat(failed.get("statusMessage").asString()).isEqualTo("exited with code 2");
        assertThat(logs("simulated")).contains("simulated training job simulated on 1 x ml.g5.12xlarge");
    }

    @Test
    void stopsARunningProcessAndReleasesItsCapacity() {
        var body = job("sleeper", entry(G5, 2));
        body.put("container", Map.of("command", List.of("sleep", "600")));
        submit(team, body);
        awaitStatus(team, "sleeper", "RUNNING");

        JsonNode stopping = expect(api.post("/api/v1/teams/" + team + "/jobs/sleeper/stop", Map.of()), 200).json();

        assertThat(stopping.get("status").asString()).isIn("STOPPING", "STOPPED");
        JsonNode stopped = awaitStatus(team, "sleeper", "STOPPED");
        assertThat(stopped.get("statusReason").asString()).isEqualTo("STOPPED_BY_USER");
        assertThat(usedInstances()).isZero();
    }

    @Test
    void stopsAPendingJobAtOnceAndRefusesToStopAnEndedOne() {
        capacity(G5, 0);
        submit(team, job("queued", entry(G5, 1)));

        JsonNode stopped = expect(api.post("/api/v1/teams/" + team + "/jobs/queued/stop", Map.of()), 200).json();

        assertThat(stopped.get("status").asString()).isEqualTo("STOPPED");
        assertThat(stopped.get("statusReason").asString()).isEqualTo("STOPPED_BY_USER");
        assertThat(api.post("/api/v1/teams/" + team + "/jobs/queued/stop", Map.of()).status()).isEqualTo(409);
    }

    @Test
    void aJobRunningPastItsMaximumRunTimeIsStopped() {
        var body = job("long", entry(G5, 1));
        body.put("maxRuntimeInSeconds", 1);
        submit(team, body);

        JsonNode stopped = awaitStatus(team, "long", "STOPPED");

        assertThat(stopped.get("statusReason").asString()).isEqualTo("MAX_RUNTIME_EXCEEDED");
        assertThat(usedInstances()).isZero();
    }

    private String logs(String job) {
        return expect(api.get("/api/v1/teams/" + team + "/jobs/" + job + "/logs"), 200).text();
    }

    private int usedInstances() {
        return org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(5))
                .pollInterval(java.time.Duration.ofMillis(20))
                .until(() -> api.get("/api/v1/admin/teams/" + team).json().get("usage").get("jobsInUse").asInt(),
                        used -> used == 0);
    }
}
