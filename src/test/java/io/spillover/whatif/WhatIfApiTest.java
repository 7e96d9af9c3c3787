package io.spillover.whatif;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.spillover.security.TeamRole;
import io.spillover.support.Api;
import io.spillover.support.ApiTest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;

/**
 * What-if runs through the API: over the platform's own history with an offering's capacity doubled, over an
 * uploaded trace, refused with a 400 naming the field or the trace's line and column, for platform admins only,
 * and never touching live state.
 */
class WhatIfApiTest extends ApiTest {

    static final String P5 = "ml.p5.48xlarge";
    static final String P4D = "ml.p4d.24xlarge";
    static final String EAST = "us-east-1";
    static final String P5_EAST = "on-demand " + P5 + " in " + EAST;

    /** What the live tables hold: a run must leave all of it as it was. */
    static final String LIVE = """
            SELECT (SELECT md5(coalesce(string_agg(j::text, ',' ORDER BY id), '')) FROM jobs j)
                || '/' || (SELECT md5(coalesce(string_agg(e::text, ',' ORDER BY job_id, idx), '')) FROM job_entries e)
                || '/' || (SELECT count(*) FROM job_transitions) || '/' || (SELECT count(*) FROM job_evaluations)
                || '/' || (SELECT md5(coalesce(string_agg(o::text, ',' ORDER BY id), '')) FROM offerings o)
                || '/' || (SELECT md5(coalesce(string_agg(t::text, ',' ORDER BY name), '')) FROM teams t)
                || '/' || (SELECT md5(coalesce(string_agg(q::text, ',' ORDER BY team, instance_type), ''))
                      FROM team_quotas q)
                || '/' || (SELECT md5(coalesce(string_agg(p::text, ',' ORDER BY name), '')) FROM training_plans p)""";

    @Autowired
    JdbcClient jdbc;

    @Autowired
    WhatIfRunner runner;

    @Test
    void aRunOverTheOwnHistoryWithAnOfferingDoubledFinishesAndShowsTheChange() {
        Window window = history(4);

        JsonNode run = finished(start(window.request(offering(P5, 2))));

        assertThat(run.get("progress").asDouble()).isEqualTo(1.0);
        assertThat(run.at("/input/kind").asString()).isEqualTo("history");
        assertThat(run.at("/input/jobs").asInt()).isEqualTo(4);
        assertThat(run.at("/changes/0").asString()).isEqualTo(P5_EAST + ": 1 → 2 instance(s)");
        assertThat(run.at("/configurations/baseline/offerings").findValuesAsString("offering")).contains(P5_EAST);
        JsonNode baseline = run.at("/result/baseline");
        JsonNode change = run.at("/result/change");
        assertThat(baseline.get("started").asInt()).isEqualTo(4);
        assertThat(change.get("started").asInt()).isEqualTo(4);
        // one p5: the four run one after the other; two: two at a time
        assertThat(baseline.at("/waits/max").asLong()).isGreaterThan(change.at("/waits/max").asLong());
        assertThat(baseline.at("/waits/mean").asDouble()).isGreaterThan(change.at("/waits/mean").asDouble());
        assertThat(group(baseline.get("byTeam"), window.team()).at("/jobs").asInt()).isEqualTo(4);
        assertThat(group(change.get("byOffering"), P5_EAST).at("/started").asInt()).isEqualTo(4);
        assertThat(baseline.get("waitCdf").size()).isGreaterThan(1);
        assertThat(last(baseline.get("waitCdf")).get("share").asDouble()).isEqualTo(1.0);
        assertThat(last(change.get("waitCdf")).get("waitSeconds").asLong())
                .isLessThan(last(baseline.get("waitCdf")).get("waitSeconds").asLong());
        assertThat(run.get("assumptions").toString()).contains("runs as long on every entry of its list");
    }

    @Test
    void badInputAnswers400NamingTheFieldOrTheTracesLineAndColumnAndStoresNothing() {
        Window window = history(1);
        long before = runs();

        assertRefused(window.request(offering("ml.nonsense.xlarge", 2)), "edits[0].instanceType",
                "unknown instance type ml.nonsense.xlarge");
        assertRefused(window.request(offering("ml.g5.2xlarge", 2)), "edits[0].instanceType",
                "no on-demand offering of ml.g5.2xlarge in us-east-1");
        assertRefused(window.request(Map.of("kind", "team", "team", "no-such-team", "weight", 2)), "edits[0].team",
                "unknown team no-such-team");
        assertRefused(window.request(Map.of("kind", "remove-plan", "name", "no-such-plan")), "edits[0].name",
                "no plan no-such-plan");
        assertRefused(window.request(offering(P5, -1)), "edits[0].instances", "must be a whole number");
        assertRefused(Map.of("input", Map.of("from", "2001-01-01T00:00:00Z", "to", "2001-01-02T00:00:00Z"),
                "edits", List.of(offering(P5, 2))), "input", "no job was submitted");
        assertRefused(Map.of("input", Map.of("from", window.to().toString(), "to", window.from().toString()),
                "edits", List.of(offering(P5, 2))), "input.to", "must be after input.from");
        assertRefused(Map.of("input", Map.of("trace", "job_id,team,submit_time_s,gpus,duration_s\n"
                + "a,x,0,1,60\nb,x,5,eight,60\n"), "edits", List.of(offering(P5, 2))), "input.trace",
                "line 3, column gpus: must be a whole number");
        assertRefused(Map.of("input", Map.of("trace", "job_id,team,gpus\na,x,1\n"), "edits",
                List.of(offering(P5, 2))), "input.trace", "line 1: the trace lacks the column(s)");
        assertRefused(Map.of("input", Map.of("from", window.from().toString(), "to", window.to().toString(),
                "trace", "x"), "edits", List.of(offering(P5, 2))), "input", "not both");
        assertRefused(window.request(), "edits", "at least one edit");
        assertRefused(Map.of("input", Map.of("from", window.from().toString(), "to", window.to().toString()),
                "edits", List.of(Map.of("kind", "paint-it-red"))), "edits[0]", "");

        assertThat(runs()).as("refused starts store nothing").isEqualTo(before);
    }

    @Test
    void onlyPlatformAdminsStartOrReadRuns() {
        Window window = history(1);
        JsonNode run = finished(start(window.request(offering(P5, 2))));
        String admin = expect(api.post("/api/v1/teams/" + window.team() + "/tokens",
                Map.of("name", "ta", "role", TeamRole.TEAM_ADMIN.name())), 201).json().get("secret").asString();
        Api teamAdmin = api.as(admin);

        assertThat(teamAdmin.post("/api/v1/admin/what-if", window.request(offering(P5, 2))).status()).isEqualTo(403);
        assertThat(teamAdmin.get("/api/v1/admin/what-if").status()).isEqualTo(403);
        assertThat(teamAdmin.get("/api/v1/admin/what-if/" + run.get("id").asString()).status()).isEqualTo(403);
        assertThat(api.as(null).get("/api/v1/admin/what-if").status()).isEqualTo(401);
        assertThat(api.get("/api/v1/admin/what-if/00000000-0000-0000-0000-000000000000").status()).isEqualTo(404);
    }

    @Test
    void aRunReadsTheLiveTablesAndWritesNoneButItsOwn() {
        Window window = history(3);
        String before = jdbc.sql(LIVE).query(String.class).single();
        long runsBefore = runs();

        var edits = List.<Object>of(offering(P5, 3),
                Map.of("kind", "team", "team", window.team(), "weight", 3, "instanceLimits", Map.of(P5, 1)),
                Map.of("kind", "add-plan", "name", "what-if-plan", "instanceType", P5, "region", EAST,
                        "instances", 2, "teams", List.of(window.team())),
                Map.of("kind", "queue-policy", "fairShare", true, "holds", false));
        JsonNode run = finished(start(window.request(edits.toArray())));

        assertThat(jdbc.sql(LIVE).query(String.class).single()).isEqualTo(before);
        assertThat(runs()).isEqualTo(runsBefore + 1);
        assertThat(run.get("changes").toString()).contains("weight 1 → 3").contains("plan what-if-plan added")
                .contains("fair share off → on").contains("holds after 86400 s and the expected run → off");
        // the team's one p5 of quota and its plan: its jobs start on the plan, which it lists before on-demand p5
        assertThat(run.at("/result/change/plans/what-if-plan").asDouble()).isPositive();
        assertThat(run.at("/configurations/change/queue/fairShare").asBoolean()).isTrue();
        assertThat(run.at("/configurations/baseline/queue/fairShare").asBoolean()).isFalse();
    }

    @Test
    void aTraceInTheReplaysFormatReplaysOnTheFleetItsStrangeTeamsWithoutQuota() {
        capacity(P5, 2);
        capacity(P4D, 2);
        String team = team(Map.of(P5, 1, P4D, 1));
        String trace = "job_id,team,submit_time_s,gpus,job_type,duration_s\n"
                + "j1," + team + ",0,8,resnet,600\n"
                + "j2," + team + ",0,8,resnet,600\n"
                + "j3,philly-vc,10,16,\"bert, large\",1200\n"
                + "j4,philly-vc,20,8,bert,300\n"
                + "j5,philly-vc,30,1000,huge,300\n";

        JsonNode run = finished(start(Map.of("input", Map.of("trace", trace, "traceName", "small.csv"),
                "edits", List.of(offering(P4D, 4)))));

        assertThat(run.at("/input/kind").asString()).isEqualTo("trace");
        assertThat(run.at("/input/traceName").asString()).isEqualTo("small.csv");
        assertThat(run.at("/input/jobs").asInt()).isEqualTo(4);
        assertThat(run.at("/input/skipped/0/examples/0").asString()).isEqualTo("j5");
        assertThat(run.get("assumptions").toString()).contains("not on the platform");
        assertThat(run.at("/result/baseline/started").asInt()).isEqualTo(4);
        assertThat(group(run.at("/result/baseline/byTeam"), "philly-vc").get("jobs").asInt()).isEqualTo(2);
    }

    /**
     * The test framework pauses a context it does not use (stops its lifecycle beans) and starts it again later:
     * the runner's workers must come back with it.
     */
    @Test
    void runsReplayAfterTheRunnerWasStoppedAndStartedAgain() {
        Window window = history(1);
        runner.stop();
        runner.start();

        JsonNode run = finished(start(window.request(offering(P5, 2))));

        assertThat(run.at("/result/change/started").asInt()).isEqualTo(1);
    }

    // --- helpers ---

    /** A window of the platform's history: a new team's jobs, one after the other on one p5, each running 1 s. */
    record Window(String team, Instant from, Instant to) {

        Map<String, Object> request(Object... edits) {
            return Map.of("input", Map.of("from", from.toString(), "to", to.toString()), "edits", List.of(edits));
        }
    }

    private Window history(int jobs) {
        capacity(P5, 1);
        String team = team(Map.of(P5, 4));
        Instant from = Instant.now();
        var names = new ArrayList<String>();
        for (int i = 0; i < jobs; i++) {
            var body = new HashMap<>(job("history-" + i, entry(P5, 1)));
            body.put("local", Map.of("runtimeSeconds", 1));
            names.add(submit(team, body).get("name").asString());
        }
        for (String name : names) {
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
                    .until(() -> describe(team, name), j -> j.get("status").asString().equals("COMPLETED"));
        }
        return new Window(team, from, Instant.now());
    }

    static Map<String, Object> offering(String type, int instances) {
        var edit = new LinkedHashMap<String, Object>();
        edit.put("kind", "offering-capacity");
        edit.put("region", EAST);
        edit.put("instanceType", type);
        edit.put("instances", instances);
        return edit;
    }

    private JsonNode start(Map<String, Object> request) {
        Api.Response started = expect(api.post("/api/v1/admin/what-if", request), 202);
        assertThat(started.header("Location")).endsWith("/api/v1/admin/what-if/" + started.json().get("id").asString());
        assertThat(started.json().get("status").asString()).isEqualTo("QUEUED");
        return started.json();
    }

    /** The run once it is done, read as a client follows it. */
    private JsonNode finished(JsonNode started) {
        String path = "/api/v1/admin/what-if/" + started.get("id").asString();
        JsonNode run = await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50))
                .until(() -> expect(api.get(path), 200).json(),
                        r -> r.get("status").asString().equals("DONE") || r.get("status").asString().equals("FAILED"));
        assertThat(run.get("status").asString()).as(run.path("error").asString()).isEqualTo("DONE");
        return run;
    }

    private void assertRefused(Map<String, Object> request, String field, String message) {
        Api.Response refused = api.post("/api/v1/admin/what-if", request);
        assertThat(refused.status()).as(refused.text()).isEqualTo(400);
        assertThat(refused.header("Content-Type")).startsWith("application/problem+json");
        assertThat(refused.json().get("errors")).anySatisfy(error -> {
            assertThat(error.get("field").asString()).isEqualTo(field);
            assertThat(error.get("message").asString()).contains(message);
        });
    }

    private long runs() {
        return jdbc.sql("SELECT count(*) FROM what_if_runs").query(Long.class).single();
    }

    private static JsonNode group(JsonNode groups, String name) {
        for (JsonNode group : groups) {
            if (group.get("name").asString().equals(name)) {
                return group;
            }
        }
        throw new AssertionError("no " + name + " in " + groups);
    }

    private static JsonNode last(JsonNode array) {
        return array.get(array.size() - 1);
    }
}
