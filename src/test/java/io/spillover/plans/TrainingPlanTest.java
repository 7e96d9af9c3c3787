package io.spillover.plans;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillover.support.ApiTest;
import io.spillover.support.Concurrently;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Reserved capacity used first, on its window, never overbooked (SPEC §2, §3.3, §3.4.3). */
class TrainingPlanTest extends ApiTest {

    static final String P5 = "ml.p5.48xlarge";
    static final String P4D = "ml.p4d.24xlarge";
    private static final AtomicInteger PLANS = new AtomicInteger();

    @Test
    void aPlanEntryUsesThePlanWhileItHasRoomThenTheListFallsThroughToOnDemand() {
        capacity(P4D, 4);
        String team = team(Map.of(P5, 4, P4D, 4));
        String plan = plan(team, 2, Instant.now().minusSeconds(60), Instant.now().plus(Duration.ofDays(1)));

        submit(team, job("first", planEntry(plan, 2), entry(P4D, 4)));
        JsonNode first = awaitStatus(team, "first", "RUNNING");
        submit(team, job("second", planEntry(plan, 2), entry(P4D, 4)));
        JsonNode second = awaitStatus(team, "second", "RUNNING");

        assertThat(first.get("selection").get("source").asString()).isEqualTo("plan:" + plan);
        assertThat(second.get("selection").get("source").asString()).isEqualTo("on-demand");
        assertThat(reasons(evaluations(team, "second").get(0)).get(0))
                .isEqualTo("plan " + plan + " has 0 of 2 instances free, 2 needed");
        JsonNode visible = expect(api.get("/api/v1/teams/" + team + "/training-plans"), 200).json().get(0);
        assertThat(visible.get("inUse").asInt()).isEqualTo(2);
        assertThat(visible.get("available").asInt()).isZero();
    }

    @Test
    void aJobWaitingForAScheduledPlanStartsWithinOneSecondOfItsStart() {
        String team = team(Map.of(P5, 2));
        Instant start = Instant.now().plusSeconds(2).truncatedTo(ChronoUnit.MILLIS);
        String plan = plan(team, 2, start, start.plus(Duration.ofHours(1)));

        submit(team, job("reserved", planEntry(plan, 2)));
        assertThat(reasons(awaitEvaluation(team, "reserved")).get(0)).startsWith("plan " + plan + " starts at ");

        JsonNode started = awaitStatus(team, "reserved", "RUNNING");
        Instant starting = transitionTo(started, "STARTING");
        assertThat(Duration.between(start, starting)).isBetween(Duration.ZERO, Duration.ofSeconds(1));
        assertThat(evaluations(team, "reserved").get(0).get("trigger").asString()).isEqualTo("PLAN_ACTIVATED");
    }

    @Test
    void thePendingClockOfAJobWaitingOnlyForAScheduledPlanRunsFromThePlansStart() {
        String team = team(Map.of(P5, 2));
        Instant start = Instant.now().plusSeconds(2).truncatedTo(ChronoUnit.MILLIS);
        String plan = plan(team, 1, start, start.plus(Duration.ofHours(1)));
        var first = job("first", planEntry(plan, 1));
        first.put("maxPendingTimeInSeconds", 2);
        var second = job("second", planEntry(plan, 1));
        second.put("maxPendingTimeInSeconds", 2);
        submit(team, first);
        JsonNode waiting = submit(team, second);

        assertThat(Instant.parse(waiting.get("pendingDeadline").asString())).isEqualTo(start.plusSeconds(2));
        awaitStatus(team, "first", "RUNNING");
        JsonNode stopped = Awaitility.await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
                .until(() -> describe(team, "second"), j -> j.get("status").asString().equals("STOPPED"));

        assertThat(stopped.get("statusReason").asString()).isEqualTo("MAX_PENDING_TIME_EXCEEDED");
        Instant ended = Instant.parse(stopped.get("endedAt").asString());
        assertThat(Duration.between(start.plusSeconds(2), ended)).as("not stopped before start + 2 s")
                .isBetween(Duration.ZERO, Duration.ofSeconds(1));
    }

    @Test
    void aRunningJobOnAPlanIsStoppedWhenThePlanEnds() {
        String team = team(Map.of(P5, 1));
        Instant end = Instant.now().plusSeconds(2).truncatedTo(ChronoUnit.MILLIS);
        String plan = plan(team, 1, Instant.now().minusSeconds(60), end);
        submit(team, job("on-borrowed-time", planEntry(plan, 1)));
        awaitStatus(team, "on-borrowed-time", "RUNNING");

        JsonNode stopped = awaitStatus(team, "on-borrowed-time", "STOPPED");

        assertThat(stopped.get("statusReason").asString()).isEqualTo("PLAN_EXPIRED");
        assertThat(Duration.between(end, transitionTo(stopped, "STOPPING")))
                .isBetween(Duration.ZERO, Duration.ofSeconds(1));
    }

    @Test
    void aProcessingJobNamingAPlanIsRejected() {
        String team = team(Map.of(P5, 1, "ml.m5.xlarge", 1));
        String plan = plan(team, 1, Instant.now().minusSeconds(60), Instant.now().plus(Duration.ofDays(1)));
        var body = job("processing", planEntry(plan, 1));
        body.put("kind", "PROCESSING");

        JsonNode problem = expect(api.post("/api/v1/teams/" + team + "/jobs", body), 400).json();

        assertThat(problem.toString()).contains("instancePreferences[0].trainingPlan")
                .contains("training plans serve training jobs only");
    }

    @Test
    void anotherTeamCannotSeeOrUseThePlan() {
        String owner = team(Map.of(P5, 1));
        String other = team(Map.of(P5, 1));
        String plan = plan(owner, 1, Instant.now().minusSeconds(60), Instant.now().plus(Duration.ofDays(1)));

        assertThat(api.get("/api/v1/teams/" + other + "/training-plans").json().size()).isZero();
        JsonNode problem = expect(api.post("/api/v1/teams/" + other + "/jobs", job("borrow", planEntry(plan, 1))), 400)
                .json();
        assertThat(problem.toString()).contains("unknown training plan " + plan);
    }

    @Test
    void planCapacityIsNeverOverbookedByConcurrentSubmissions() throws Exception {
        String team = team(Map.of(P5, 20));
        String plan = plan(team, 3, Instant.now().minusSeconds(60), Instant.now().plus(Duration.ofDays(1)));

        Concurrently.run(20, i -> expect(api.post("/api/v1/teams/" + team + "/jobs",
                job("rush-" + i, planEntry(plan, 1))), 201).status());

        List<JsonNode> jobs = Awaitility.await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50))
                .until(() -> {
                    var all = new ArrayList<JsonNode>();
                    api.get("/api/v1/teams/" + team + "/jobs?size=50").json().get("items").forEach(all::add);
                    return all;
                }, all -> all.stream().allMatch(j -> j.get("status").asString().equals("RUNNING")
                        || j.get("status").asString().equals("PENDING")
                        && waitsAfterEvaluation(team, j.get("name").asString())));
        assertThat(jobs.stream().filter(j -> j.get("status").asString().equals("RUNNING")).count()).isEqualTo(3);
        assertThat(api.get("/api/v1/teams/" + team + "/training-plans").json().get(0).get("inUse").asInt()).isEqualTo(3);
    }

    @Test
    void rejectsAPlanWithAnUnknownTypeAnEndBeforeItsStartAndAnUnknownTeam() {
        var body = new HashMap<String, Object>(Map.of("name", "broken", "instanceType", "ml.nope",
                "instanceCount", 1, "startTime", "2030-02-01T00:00:00Z", "endTime", "2030-01-01T00:00:00Z",
                "teams", List.of("no-such-team")));

        JsonNode problem = expect(api.post("/api/v1/admin/training-plans", body), 400).json();

        assertThat(problem.toString()).contains("instanceType").contains("endTime").contains("teams[0]");
        assertThat(api.get("/api/v1/admin/training-plans").json().toString()).doesNotContain("\"broken\"");
    }

    private String plan(String team, int instances, Instant start, Instant end) {
        String name = "plan-" + PLANS.incrementAndGet() + "-" + team;
        expect(api.post("/api/v1/admin/training-plans", Map.of("name", name, "instanceType", P5,
                "instanceCount", instances, "startTime", start.toString(), "endTime", end.toString(),
                "teams", List.of(team))), 201);
        return name;
    }

    private static Map<String, Object> planEntry(String plan, int count) {
        return Map.of("instanceType", P5, "instanceCount", count, "trainingPlan", plan);
    }


    private static Instant transitionTo(JsonNode job, String status) {
        for (JsonNode t : job.get("transitions")) {
            if (t.get("to").asString().equals(status)) {
                return Instant.parse(t.get("at").asString());
            }
        }
        throw new AssertionError("no transition to " + status + " in " + job);
    }

    /**
     * Whether a job listed as PENDING was evaluated and left waiting. The list and the evaluations are read
     * one after the other, so a job placed in between shows a selection here and is read again.
     */
    private boolean waitsAfterEvaluation(String team, String job) {
        JsonNode evaluations = evaluations(team, job);
        return !evaluations.isEmpty() && !evaluations.get(0).get("outcome").asString().equals("SELECTED");
    }
}
