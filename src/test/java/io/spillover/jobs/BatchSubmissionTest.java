package io.spillover.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillover.support.Api;
import io.spillover.support.ApiTest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;

/**
 * {@code POST /teams/{team}/jobs:batch}: a pipeline's fan-out in one call, checked item by item as single
 * submissions are, stored all or none in one transaction, and idempotent per item by client token.
 */
class BatchSubmissionTest extends ApiTest {

    private static final String M5 = "ml.m5.xlarge";

    @Autowired
    JdbcClient jdbc;

    @Test
    void aBatchMakesEveryJobAtOnceAndTheSchedulerPlacesThem() {
        capacity(M5, 3);
        String team = team(Map.of(M5, 3));

        Api.Response response = expect(batch(team, job("sweep-0", entry(M5, 1)), job("sweep-1", entry(M5, 1)),
                job("sweep-2", entry(M5, 1))), 201);

        JsonNode items = response.json().get("jobs");
        assertThat(items).hasSize(3);
        for (int i = 0; i < 3; i++) {
            assertThat(items.get(i).get("created").asBoolean()).isTrue();
            assertThat(items.get(i).get("job").get("name").asString()).isEqualTo("sweep-" + i);
            assertThat(items.get(i).get("job").get("transitions").get(0).get("reason").asString())
                    .isEqualTo("SUBMITTED");
            awaitStatus(team, "sweep-" + i, "RUNNING");
        }
        assertThat(jdbc.sql("SELECT count(*) FROM audit_log WHERE action = 'submit jobs' AND target = ?")
                .param("teams/" + team + "/jobs").query(Integer.class).single()).as("one record for the batch")
                .isEqualTo(1);
    }

    @Test
    void oneBadItemRefusesTheWholeBatchNamingEachBadItemsFieldsAndStoresNothing() {
        String team = team(Map.of(M5, 2));
        submit(team, job("taken", entry(M5, 1)));

        Api.Response response = expect(batch(team, job("fine", entry(M5, 1)), job("unknown-type",
                entry("ml.nope.xlarge", 1)), job("taken", entry(M5, 1)), job("too-many", entry(M5, 3))), 400);

        assertThat(fields(response.json())).containsExactly("jobs[1].instancePreferences[0].instanceType",
                "jobs[2].name", "jobs[3].instancePreferences[0].instanceCount");
        assertThat(response.json().get("detail").asString()).contains("already has a job named taken");
        expect(api.get("/api/v1/teams/" + team + "/jobs/fine"), 404);
        assertThat(api.get("/api/v1/teams/" + team + "/jobs").json().get("totalItems").asInt()).isEqualTo(1);
    }

    @Test
    void aRetriedBatchAnswersTheJobsItMadeAndANewItemBesideThemIsMade() {
        String team = team(Map.of(M5, 1));
        var first = List.of(tokened("a", "tok-a"), tokened("b", "tok-b"));
        JsonNode made = expect(batch(team, first.toArray(Map[]::new)), 201).json().get("jobs");

        JsonNode again = expect(batch(team, first.toArray(Map[]::new)), 200).json().get("jobs");
        JsonNode grown = expect(batch(team, tokened("a", "tok-a"), tokened("c", "tok-c")), 201).json().get("jobs");

        assertThat(again.get(0).get("created").asBoolean()).isFalse();
        assertThat(again.get(1).get("job").get("id")).isEqualTo(made.get(1).get("job").get("id"));
        assertThat(grown.get(0).get("created").asBoolean()).isFalse();
        assertThat(grown.get(0).get("job").get("id")).isEqualTo(made.get(0).get("job").get("id"));
        assertThat(grown.get(1).get("created").asBoolean()).isTrue();
        assertThat(api.get("/api/v1/teams/" + team + "/jobs").json().get("totalItems").asInt()).isEqualTo(3);
    }

    @Test
    void twoItemsSharingANameOrAClientTokenAreRefused() {
        String team = team(Map.of(M5, 1));

        Api.Response response = expect(batch(team, job("twin", entry(M5, 1)), job("twin", entry(M5, 1)),
                tokened("x", "same"), tokened("y", "same")), 400);

        assertThat(fields(response.json())).containsExactly("jobs[1].name", "jobs[3].clientToken");
        assertThat(response.json().get("detail").asString()).contains("jobs[0] has it too");
    }

    @Test
    void anEmptyBatchOrOneOverFiveHundredIsRefusedNamingJobs() {
        String team = team(Map.of(M5, 1));
        List<Map<String, Object>> tooMany = IntStream.range(0, JobSubmissions.MAX_BATCH + 1)
                .mapToObj(i -> job("j" + i, entry(M5, 1))).toList();

        assertThat(fields(expect(api.post(path(team), Map.of("jobs", List.of())), 400).json()))
                .containsExactly("jobs");
        assertThat(fields(expect(api.post(path(team), Map.of("jobs", tooMany)), 400).json()))
                .containsExactly("jobs");
        assertThat(fields(expect(api.post(path(team), Map.of()), 400).json())).containsExactly("jobs");
        var wrongType = new HashMap<String, Object>(job("typed", entry(M5, 1)));
        wrongType.put("priority", "high");
        assertThat(fields(expect(api.post(path(team), Map.of("jobs", List.of(wrongType))), 400).json()))
                .containsExactly("jobs[0].priority");
    }

    private Api.Response batch(String team, Map<String, Object>... jobs) {
        return api.post(path(team), Map.of("jobs", List.of(jobs)));
    }

    private static String path(String team) {
        return "/api/v1/teams/" + team + "/jobs:batch";
    }

    private static Map<String, Object> tokened(String name, String token) {
        var body = new HashMap<String, Object>(job(name, entry(M5, 1)));
        body.put("clientToken", token);
        return body;
    }

    private static List<String> fields(JsonNode problem) {
        var fields = new ArrayList<String>();
        problem.get("errors").forEach(e -> fields.add(e.get("field").asString()));
        return fields;
    }
}
