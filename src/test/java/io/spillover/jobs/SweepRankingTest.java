package io.spillover.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillover.support.ApiTest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Shortest expected run first on the running service, with the runs of a job's sweep as its witness: a trial of
 * a search whose first trial just completed in a second goes before a job submitted earlier that is expected to
 * run ten hours, although its own maximum run time says twenty.
 */
class SweepRankingTest extends ApiTest {

    static final String P4D = "ml.p4d.24xlarge";

    @Test
    void aJobWhoseSweepRanShortGoesBeforeAnEarlierJobExpectedToRunLonger() {
        capacity(P4D, 1);
        String team = team(Map.of(P4D, 2));
        profile(team, "search");
        profile(team, "eval");
        submit(team, job("search-1", "search", 1, null));
        awaitStatus(team, "search-1", "COMPLETED");
        submit(team, job("blocker", "eval", 3600, null));
        awaitStatus(team, "blocker", "RUNNING");
        submit(team, job("eval-1", "eval", 3600, 36_000L));
        submit(team, job("search-2", "search", 3600, 72_000L));
        awaitEvaluation(team, "search-2");

        expect(api.post("/api/v1/teams/" + team + "/jobs/blocker/stop", Map.of()), 200, 202);

        JsonNode started = awaitStatus(team, "search-2", "STARTING", "RUNNING");
        assertThat(started.get("selection").get("instanceType").asString()).isEqualTo(P4D);
        assertThat(describe(team, "eval-1").get("status").asString()).isEqualTo("PENDING");
        assertThat(evaluations(team, "search-2").get(0).get("trigger").asString()).isEqualTo("CAPACITY_RELEASED");
    }

    private void profile(String team, String name) {
        expect(api.put("/api/v1/teams/" + team + "/profiles/" + name,
                Map.of("instancePreferences", List.of(entry(P4D, 1)))), 201);
    }

    private static Map<String, Object> job(String name, String profile, int runtimeSeconds, Long maxRuntimeSeconds) {
        var body = new java.util.LinkedHashMap<String, Object>();
        body.put("name", name);
        body.put("kind", "TRAINING");
        body.put("profile", profile);
        body.put("local", Map.of("runtimeSeconds", runtimeSeconds));
        if (maxRuntimeSeconds != null) {
            body.put("maxRuntimeInSeconds", maxRuntimeSeconds);
        }
        return body;
    }
}
