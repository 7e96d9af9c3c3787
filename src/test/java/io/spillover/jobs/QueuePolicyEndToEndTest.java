package io.spillover.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillover.support.ApiTest;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * The queue policy on the running service: a job waits for its first choice as long as its patience says,
 * the scheduler wakes it by a timer when the patience runs out, a job can ask for first fit, and the admin API
 * shows where each team stands in fair share. The patience is three seconds here so the timer is seen firing.
 */
@TestPropertySource(properties = "spillover.queue.fallback-after=3s")
class QueuePolicyEndToEndTest extends ApiTest {

    static final String P5 = "ml.p5.48xlarge";
    static final String P4D = "ml.p4d.24xlarge";

    @Test
    void aJobWaitsForItsFirstChoiceUntilItsPatienceRunsOutThenATimerLetsItFallBack() {
        capacity(P5, 1);
        capacity(P4D, 2);
        String team = team(Map.of(P5, 2, P4D, 2));
        submit(team, job("holder", entry(P5, 1)));
        awaitStatus(team, "holder", "RUNNING");

        submit(team, job("patient", entry(P5, 1), entry(P4D, 1)));

        JsonNode waiting = awaitEvaluation(team, "patient");
        assertThat(waiting.get("outcome").asString()).isEqualTo("NOTHING_FITS");
        assertThat(reasons(waiting).get(0)).isEqualTo("on-demand ml.p5.48xlarge in us-east-1 has 0 of 1 instances free, 1 needed");
        assertThat(reasons(waiting).get(1)).startsWith("waiting ")
                .endsWith(" more for entry 0 before taking entry 1 (patience 3 s per entry)");
        JsonNode running = awaitStatus(team, "patient", "STARTING", "RUNNING");
        assertThat(running.get("selection").get("index").asInt()).isEqualTo(1);
        JsonNode placed = evaluations(team, "patient").get(0);
        assertThat(placed.get("trigger").asString()).isEqualTo("FALLBACK_OPENED");
        assertThat(placed.get("outcome").asString()).isEqualTo("SELECTED");
    }

    @Test
    void aJobThatAsksForFirstFitFallsBackAtOnce() {
        capacity(P5, 1);
        capacity(P4D, 2);
        String team = team(Map.of(P5, 2, P4D, 2));
        submit(team, job("holder", entry(P5, 1)));
        awaitStatus(team, "holder", "RUNNING");
        var eager = job("eager", entry(P5, 1), entry(P4D, 1));
        eager.put("fallbackAfterSeconds", 0);

        JsonNode submitted = submit(team, eager);

        assertThat(submitted.get("fallbackAfterSeconds").asLong()).isZero();
        JsonNode running = awaitStatus(team, "eager", "STARTING", "RUNNING");
        assertThat(running.get("selection").get("index").asInt()).isEqualTo(1);
        assertThat(evaluations(team, "eager").get(0).get("trigger").asString()).isEqualTo("SUBMITTED");
    }

    @Test
    void aNegativePatienceIsRefusedNamingTheField() {
        String team = team(Map.of(P4D, 2));
        var job = job("impatient", entry(P4D, 1));
        job.put("fallbackAfterSeconds", -1);

        JsonNode problem = expect(api.post("/api/v1/teams/" + team + "/jobs", job), 400).json();

        assertThat(problem.toString()).contains("fallbackAfterSeconds");
        expect(api.get("/api/v1/teams/" + team + "/jobs/impatient"), 404);
    }

    @Test
    void theAdminApiShowsEachTeamsShareAndItsDecayedUsageWithRunningJobsCharged() {
        capacity(P4D, 2);
        String team = team(Map.of(P4D, 2));
        JsonNode before = expect(api.get("/api/v1/admin/teams/" + team), 200).json().get("share");
        assertThat(before.get("fairShare").asBoolean()).isTrue();
        assertThat(before.get("shareDecaySeconds").asLong()).isEqualTo(86_400);
        assertThat(before.get("decayedUsageHours").asDouble()).isZero();
        assertThat(before.get("targetShare").asDouble()).isBetween(0.0, 1.0);

        submit(team, job("runner", entry(P4D, 2)));
        awaitStatus(team, "runner", "RUNNING");

        JsonNode after = expect(api.get("/api/v1/admin/teams/" + team), 200).json().get("share");
        // 2 × 8 accelerators charged for one mean life (1 d / ln 2 = 34.6 h) until the run ends: no history yet
        assertThat(after.get("decayedUsageHours").asDouble()).isCloseTo(16 * 24 / Math.log(2),
                org.assertj.core.data.Offset.offset(0.5));
        assertThat(after.get("usageShare").asDouble()).isPositive();
    }
}
