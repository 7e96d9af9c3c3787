package io.spillover.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillover.support.ApiTest;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A submission is written in one statement of plain SQL ({@link NewJobs}) and read back through JPA ({@link Jobs}):
 * the two must agree on every field, for single submissions and batches, or a job would read back other than it was
 * answered.
 */
class StoredSubmissionTest extends ApiTest {

    private static final String P5 = "ml.p5.48xlarge";
    private static final String P4D = "ml.p4d.24xlarge";

    @Autowired
    JdbcClient jdbc;

    @Test
    void aJobWithEveryFieldReadsBackAsItWasAnswered() {
        capacity(P5, 0);
        capacity(P4D, 0);
        String team = team(Map.of(P5, 2, P4D, 4));
        var body = new LinkedHashMap<String, Object>(job("every-field", entry(P5, 2), entry(P4D, 4)));
        body.put("priority", 7);
        body.put("clientToken", "every-field-token");
        body.put("maxPendingTimeInSeconds", 7200);
        body.put("maxRuntimeInSeconds", 5400);
        body.put("expectedRuntimeSeconds", 1800);
        body.put("fallbackAfterSeconds", 600);
        body.put("preemptible", true);
        body.put("container", Map.of("command", List.of("sh", "-c", "sleep 1"), "environment", Map.of("SEED", "3")));

        JsonNode answered = submit(team, body);
        JsonNode read = describe(team, "every-field");

        assertThat(withoutEstimate(read)).isEqualTo(withoutEstimate(answered));
        assertThat(answered.get("priority").asInt()).isEqualTo(7);
        assertThat(answered.get("preemptible").asBoolean()).isTrue();
        assertThat(answered.get("container").get("environment").get("SEED").asString()).isEqualTo("3");
        assertThat(answered.get("transitions")).hasSize(1);
        assertThat(row(answered)).containsEntry("status", "PENDING").containsEntry("version", 0L)
                .containsEntry("attempt", 0).containsEntry("holds_capacity", false)
                .containsEntry("entries", 2L).containsEntry("entries_pending", 2L)
                .containsEntry("entry_team", team).containsEntry("entry_priority", 7);
    }

    @Test
    void aJobFromAProfileKeepsItsVersionAndJobsOfOneListSubmittedTogetherJoinOneSweep() {
        capacity(P5, 0);
        String team = team(Map.of(P5, 2));
        expect(api.put("/api/v1/teams/" + team + "/profiles/h100", Map.of(
                "instancePreferences", List.of(entry(P5, 2)), "maxPendingTimeInSeconds", 3600)), 201);
        Map<String, Object> fromProfile = Map.of("kind", "TRAINING", "profile", "h100",
                "local", Map.of("runtimeSeconds", 60));

        JsonNode single = submit(team, with(fromProfile, "trial-0"));
        JsonNode batch = expect(api.post("/api/v1/teams/" + team + "/jobs:batch", Map.of("jobs", List.of(
                with(fromProfile, "trial-1"), with(fromProfile, "trial-2")))), 201).json().get("jobs");

        assertThat(describe(team, "trial-0").get("profile").toString())
                .isEqualTo("{\"name\":\"h100\",\"version\":1}");
        for (int i = 0; i < 2; i++) {
            JsonNode answered = batch.get(i).get("job");
            assertThat(withoutEstimate(describe(team, "trial-" + (i + 1)))).isEqualTo(withoutEstimate(answered));
        }
        assertThat(jdbc.sql("SELECT DISTINCT sweep_id FROM jobs WHERE team = ?").param(team).query(UUID.class).list())
                .as("one sweep, the first job's").containsExactly(UUID.fromString(single.get("id").asString()));
    }

    private static Map<String, Object> with(Map<String, Object> body, String name) {
        var named = new LinkedHashMap<>(body);
        named.put("name", name);
        return named;
    }

    /** The estimated start comes later, from the estimator; everything else is as stored. */
    private static JsonNode withoutEstimate(JsonNode job) {
        ObjectNode copy = (ObjectNode) job.deepCopy();
        copy.remove("estimatedStart");
        return copy;
    }

    private Map<String, Object> row(JsonNode job) {
        return jdbc.sql("""
                        SELECT j.status, j.version, j.attempt, j.holds_capacity, count(e.*) AS entries,
                               count(e.*) FILTER (WHERE e.pending) AS entries_pending, min(e.team) AS entry_team,
                               min(e.priority) AS entry_priority
                          FROM jobs j JOIN job_entries e ON e.job_id = j.id
                         WHERE j.id = ? GROUP BY j.id""")
                .param(UUID.fromString(job.get("id").asString())).query().singleRow();
    }
}
