package io.spillover.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillover.support.ApiTest;
import io.spillover.support.Concurrently;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** The promises of SPEC §3.3–3.5 shown through the HTTP API, on real PostgreSQL and the local provider. */
class PlacementEndToEndTest extends ApiTest {

    static final String P5 = "ml.p5.48xlarge";
    static final String P4D = "ml.p4d.24xlarge";
    static final String G6E = "ml.g6e.48xlarge";

    @Test
    void fallsBackToTheSecondEntryWhenTheFirstTypeHasNoCapacity() {
        capacity(P5, 1);
        capacity(P4D, 4);
        String team = team(Map.of(P5, 2, P4D, 4));

        submit(team, job("llama", entry(P5, 2), entry(P4D, 4)));

        JsonNode running = awaitStatus(team, "llama", "RUNNING");
        assertThat(running.get("selection").toString())
                .isEqualTo("{\"index\":1,\"instanceType\":\"ml.p4d.24xlarge\",\"instanceCount\":4,"
                        + "\"region\":\"us-east-1\",\"source\":\"on-demand\",\"borrowedInstances\":0}");
        JsonNode evaluation = evaluations(team, "llama").get(0);
        assertThat(evaluation.get("trigger").asString()).isEqualTo("SUBMITTED");
        assertThat(evaluation.get("outcome").asString()).isEqualTo("SELECTED");
        assertThat(reasons(evaluation)).containsExactly(
                "on-demand ml.p5.48xlarge in us-east-1 has 1 of 1 instances free, 2 needed",
                "selected");
    }

    @Test
    void aJobThatFitsNowhereWaitsPendingWithAReasonForEveryEntry() {
        capacity(P5, 2);
        capacity(P4D, 4);
        String team = team(Map.of(P5, 2, P4D, 4));
        submit(team, job("first", entry(P5, 2), entry(P4D, 4)));
        submit(team, job("second", entry(P5, 2), entry(P4D, 4)));
        awaitStatus(team, "first", "RUNNING");
        awaitStatus(team, "second", "RUNNING");

        submit(team, job("third", entry(P5, 2), entry(P4D, 4)));

        JsonNode evaluation = awaitEvaluation(team, "third");
        assertThat(describe(team, "third").get("status").asString()).isEqualTo("PENDING");
        assertThat(evaluation.get("outcome").asString()).isEqualTo("NOTHING_FITS");
        assertThat(reasons(evaluation)).containsExactly(
                "on-demand ml.p5.48xlarge in us-east-1 has 0 of 2 instances free, 2 needed",
                "on-demand ml.p4d.24xlarge in us-east-1 has 0 of 4 instances free, 4 needed");
    }

    @Test
    void aPendingJobStartsWithinOneSecondOfARunningJobsEnd() {
        capacity(P4D, 2);
        String team = team(Map.of(P4D, 2));
        var shortJob = job("short", entry(P4D, 2));
        shortJob.put("local", Map.of("runtimeSeconds", 2));
        submit(team, shortJob);
        awaitStatus(team, "short", "RUNNING");
        submit(team, job("waiting", entry(P4D, 2)));
        assertThat(awaitEvaluation(team, "waiting").get("outcome").asString()).isEqualTo("NOTHING_FITS");

        JsonNode started = awaitStatus(team, "waiting", "STARTING", "RUNNING");

        Instant ended = Instant.parse(awaitStatus(team, "short", "COMPLETED").get("endedAt").asString());
        Instant starting = transitionTo(started, "STARTING");
        assertThat(Duration.between(ended, starting)).isBetween(Duration.ZERO, Duration.ofSeconds(1));
        assertThat(evaluations(team, "waiting").get(0).get("trigger").asString()).isEqualTo("CAPACITY_RELEASED");
    }

    @Test
    void aJobPendingPastItsMaximumPendingTimeIsStoppedWithinOneSecond() {
        capacity(P5, 0);
        String team = team(Map.of(P5, 1));
        var body = job("impatient", entry(P5, 1));
        body.put("maxPendingTimeInSeconds", 1);
        JsonNode submitted = submit(team, body);

        JsonNode stopped = awaitStatus(team, "impatient", "STOPPED");

        assertThat(stopped.get("statusReason").asString()).isEqualTo("MAX_PENDING_TIME_EXCEEDED");
        Instant deadline = Instant.parse(submitted.get("pendingDeadline").asString());
        Instant end = Instant.parse(stopped.get("endedAt").asString());
        assertThat(Duration.between(deadline, end)).isBetween(Duration.ZERO, Duration.ofSeconds(1));
    }

    @Test
    void aRetriedClientTokenGivesTheOriginalJob() {
        capacity(P4D, 1);
        String team = team(Map.of(P4D, 1));
        var body = job("pipeline-run", entry(P4D, 1));
        body.put("clientToken", "pipeline-run-981");

        JsonNode first = submit(team, body);
        var retry = expect(api.post("/api/v1/teams/" + team + "/jobs", body), 200).json();
        body.put("name", "another-name");
        var retryRenamed = expect(api.post("/api/v1/teams/" + team + "/jobs", body), 200).json();

        assertThat(retry.get("id")).isEqualTo(first.get("id"));
        assertThat(retryRenamed.get("id")).isEqualTo(first.get("id"));
        assertThat(api.get("/api/v1/teams/" + team + "/jobs").json().get("totalItems").asInt()).isEqualTo(1);
    }

    @Test
    void concurrentRetriesWithOneClientTokenMakeOneJob() throws Exception {
        capacity(P4D, 1);
        String team = team(Map.of(P4D, 1));
        var body = job("once", entry(P4D, 1));
        body.put("clientToken", "same-token");

        List<Integer> statuses = Concurrently.run(10, i -> api.post("/api/v1/teams/" + team + "/jobs", body).status());

        assertThat(statuses).containsOnly(200, 201).containsOnlyOnce(201);
        assertThat(api.get("/api/v1/teams/" + team + "/jobs").json().get("totalItems").asInt()).isEqualTo(1);
    }

    @Test
    void fiftyConcurrentSubmissionsNeverExceedCapacityOrQuota() throws Exception {
        capacity(P4D, 6);
        capacity(G6E, 3);
        String team = team(Map.of(P4D, 4, G6E, 3));

        Concurrently.run(50, i -> expect(api.post("/api/v1/teams/" + team + "/jobs",
                job("burst-" + i, entry(P4D, 1), entry(G6E, 1))), 201).status());

        List<JsonNode> jobs = awaitAllEvaluated(team, 50);
        long onP4d = jobs.stream().filter(j -> isOn(j, P4D)).count();
        long onG6e = jobs.stream().filter(j -> isOn(j, G6E)).count();
        assertThat(onP4d).as("p4d limited by the team quota of 4, not the capacity of 6").isEqualTo(4);
        assertThat(onG6e).as("g6e limited by its capacity of 3").isEqualTo(3);
        assertThat(jobs.stream().filter(j -> j.get("status").asString().equals("PENDING")).count()).isEqualTo(43);
        JsonNode usage = api.get("/api/v1/admin/teams/" + team).json().get("usage");
        assertThat(usage.get("instancesInUse").toString()).isEqualTo("{\"ml.g6e.48xlarge\":3,\"ml.p4d.24xlarge\":4}");
    }

    @Test
    void higherPriorityJobsAreServedFirstWhenCapacityFrees() {
        capacity(P4D, 1);
        String team = team(Map.of(P4D, 1));
        submit(team, job("holder", entry(P4D, 1)));
        awaitStatus(team, "holder", "RUNNING");
        var low = job("low", entry(P4D, 1));
        submit(team, low);
        var high = job("high", entry(P4D, 1));
        high.put("priority", 10);
        submit(team, high);
        awaitEvaluation(team, "high");

        expect(api.post("/api/v1/teams/" + team + "/jobs/holder/stop", Map.of()), 200);

        awaitStatus(team, "high", "RUNNING");
        assertThat(describe(team, "low").get("status").asString()).isEqualTo("PENDING");
    }

    @Test
    void aJobThatDoesNotFitDoesNotBlockSmallerJobsBehindIt() {
        capacity(P4D, 2);
        String team = team(Map.of(P4D, 4));
        submit(team, job("big", entry(P4D, 4)));
        submit(team, job("small", entry(P4D, 1)));

        awaitStatus(team, "small", "RUNNING");
        assertThat(describe(team, "big").get("status").asString()).isEqualTo("PENDING");
    }

    @Test
    void aStrictFifoTeamsWaitingJobHoldsBackTheJobsBehindIt() {
        capacity(P4D, 2);
        String team = team(Map.of(P4D, 4));
        expect(api.put("/api/v1/admin/teams/" + team, Map.of("displayName", "Strict", "queueing", "STRICT_FIFO")), 200);
        submit(team, job("big", entry(P4D, 4)));
        submit(team, job("small", entry(P4D, 1)));

        JsonNode evaluation = awaitEvaluation(team, "small");

        assertThat(evaluation.get("outcome").asString()).isEqualTo("HELD_BACK");
        assertThat(describe(team, "small").get("status").asString()).isEqualTo("PENDING");
    }

    @Test
    void raisingCapacityWakesThePendingJob() {
        capacity(P5, 0);
        String team = team(Map.of(P5, 1));
        submit(team, job("needs-p5", entry(P5, 1)));
        awaitEvaluation(team, "needs-p5");

        capacity(P5, 1);

        awaitStatus(team, "needs-p5", "RUNNING");
        assertThat(evaluations(team, "needs-p5").get(0).get("trigger").asString()).isEqualTo("CAPACITY_CHANGED");
    }

    @Test
    void raisingTheQuotaWakesThePendingJob() {
        capacity(P4D, 2);
        String team = team(Map.of(P4D, 2), null, 1);
        submit(team, job("one", entry(P4D, 1)));
        awaitStatus(team, "one", "RUNNING");
        submit(team, job("two", entry(P4D, 1)));
        assertThat(reasons(awaitEvaluation(team, "two")))
                .containsExactly("team concurrent-job cap: 1 of 1 jobs running");

        expect(api.put("/api/v1/admin/teams/" + team + "/quotas",
                Map.of("instanceLimits", Map.of(P4D, 2), "maxConcurrentJobs", 2)), 200);

        awaitStatus(team, "two", "RUNNING");
        assertThat(evaluations(team, "two").get(0).get("trigger").asString()).isEqualTo("QUOTA_CHANGED");
    }

    @Test
    void aLaunchRefusedForCapacityMarksTheOfferingAndFallsThroughToTheNextEntry() {
        capacity("us-east-1", P5, 2, true);
        capacity(P4D, 2);
        String team = team(Map.of(P5, 1, P4D, 1));
        try {
            submit(team, job("refused", entry(P5, 1), entry(P4D, 1)));

            JsonNode running = awaitStatus(team, "refused", "RUNNING");
            assertThat(running.get("selection").get("instanceType").asString()).isEqualTo(P4D);
            assertThat(running.get("attempt").asInt()).isEqualTo(2);
            assertThat(transitions(running)).containsExactly("PENDING", "STARTING", "PENDING", "STARTING", "RUNNING");
            JsonNode p5 = offering(P5);
            assertThat(p5.get("unavailableUntil").isNull()).isFalse();
            assertThat(p5.get("inUse").asInt()).isZero();
            JsonNode latest = evaluations(team, "refused").get(0);
            assertThat(latest.get("trigger").asString()).isEqualTo("LAUNCH_REFUSED");
            assertThat(reasons(latest).get(0))
                    .startsWith("on-demand ml.p5.48xlarge in us-east-1 marked unavailable until ")
                    .endsWith("after an insufficient-capacity error");
        } finally {
            capacity("us-east-1", P5, 0, false);
        }
        assertThat(offering(P5).get("unavailableUntil").isNull()).as("lifted with the refusal").isTrue();
    }

    @Test
    void repeatedEvaluationsWithTheSameOutcomeAreCountedNotLoggedAgain() {
        // an instance is free, so every capacity change evaluates the job again; the team's one-job cap keeps it out
        capacity(P5, 2);
        String team = team(Map.of(P5, 2), null, 1);
        submit(team, job("runner", entry(P5, 1)));
        awaitStatus(team, "runner", "RUNNING");
        submit(team, job("patient", entry(P5, 1)));
        awaitEvaluation(team, "patient");

        capacity(P5, 2);
        capacity(P5, 2);

        JsonNode evaluations = org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(20))
                .until(() -> evaluations(team, "patient"), e -> e.get(0).get("repeats").asInt() == 2);
        assertThat(evaluations.size()).isEqualTo(1);
    }

    @Test
    void explainSaysWhereAJobWouldGoAndStoresNothing() {
        capacity(P5, 0);
        capacity(P4D, 1);
        String team = team(Map.of(P5, 1, P4D, 1));

        JsonNode explained = expect(api.post("/api/v1/teams/" + team + "/placements/explain",
                job("dry-run", entry(P5, 1), entry(P4D, 1))), 200).json();

        assertThat(explained.get("outcome").asString()).isEqualTo("SELECTED");
        assertThat(explained.get("selectedIndex").asInt()).isEqualTo(1);
        assertThat(reasons(explained)).containsExactly(
                "on-demand ml.p5.48xlarge in us-east-1 has no instances", "selected");
        assertThat(api.get("/api/v1/teams/" + team + "/jobs").json().get("totalItems").asInt()).isZero();
        assertThat(offering(P4D).get("inUse").asInt()).isZero();
    }

    private List<JsonNode> awaitAllEvaluated(String team, int count) {
        return org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50))
                .until(() -> {
                    var jobs = new ArrayList<JsonNode>();
                    api.get("/api/v1/teams/" + team + "/jobs?size=200").json().get("items").forEach(jobs::add);
                    return jobs;
                }, jobs -> jobs.size() == count && jobs.stream().allMatch(j ->
                        j.get("status").asString().equals("RUNNING")
                                || j.get("status").asString().equals("PENDING")
                                && waitsAfterEvaluation(team, j.get("name").asString())));
    }

    private static boolean isOn(JsonNode job, String instanceType) {
        return job.get("status").asString().equals("RUNNING")
                && job.get("selection").get("instanceType").asString().equals(instanceType);
    }

    private JsonNode offering(String instanceType) {
        for (JsonNode offering : api.get("/api/v1/capacity").json()) {
            if (offering.get("instanceType").asString().equals(instanceType)
                    && offering.get("region").asString().equals("us-east-1")) {
                return offering;
            }
        }
        throw new AssertionError("no offering " + instanceType);
    }


    static List<String> transitions(JsonNode job) {
        var statuses = new ArrayList<String>();
        job.get("transitions").forEach(t -> statuses.add(t.get("to").asString()));
        return statuses;
    }

    static Instant transitionTo(JsonNode job, String status) {
        for (JsonNode t : job.get("transitions")) {
            if (t.get("to").asString().equals(status)) {
                return Instant.parse(t.get("at").asString());
            }
        }
        throw new AssertionError("no transition to " + status);
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
