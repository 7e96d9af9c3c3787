package io.spillover.scheduling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.MeterRegistry;
import io.spillover.support.ApiTest;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.TestPropertySource;

/**
 * What a cycle reads. The safety sweep (every half second here) still starts a job whose capacity appeared
 * without any wake-up (a lost event), and it leaves alone the jobs whose every offering is full, however long
 * the queue. A release passes over jobs that cannot fit, but not a job of several instances old enough to hold
 * what frees (one second here, and its expected run).
 */
@TestPropertySource(properties = {"spillover.scheduling.sweep-interval=500ms", "spillover.queue.reserve-after=1s"})
class CycleScopeTest extends ApiTest {

    private static final String G5 = "ml.g5.12xlarge";
    private static final String G6 = "ml.g6.48xlarge";
    private static final String P4D = "ml.p4d.24xlarge";

    @Autowired
    JdbcClient jdbc;
    @Autowired
    MeterRegistry registry;

    @Test
    void aSweepStartsAJobWhoseCapacityAppearedWithoutAWakeUp() {
        capacity(G5, 0);
        String team = team(Map.of(G5, 1));
        submit(team, job("missed", entry(G5, 1)));
        awaitEvaluation(team, "missed");

        // capacity written behind the scheduler's back: no event announces it
        Unannounced.capacity(jdbc, G5, 1);

        assertThat(awaitStatus(team, "missed", "RUNNING").get("transitions").toString()).contains("PLACED");
        capacity(G5, 0);
    }

    @Test
    void aJobsEntriesCountAsPendingWhileItWaitsAndNoLongerOnceItStarts() {
        capacity(G5, 0);
        capacity(G6, 0);
        String team = team(Map.of(G5, 1, G6, 1));
        submit(team, job("flagged", entry(G5, 1), entry(G6, 1)));
        awaitEvaluation(team, "flagged");
        assertThat(pendingEntries(team, "flagged")).containsExactly(true, true);

        capacity(G5, 1);
        awaitStatus(team, "flagged", "RUNNING");

        assertThat(pendingEntries(team, "flagged")).containsExactly(false, false);
        expect(api.post("/api/v1/teams/" + team + "/jobs/flagged/stop", Map.of()), 200);
        awaitStatus(team, "flagged", "STOPPED");
        capacity(G5, 0);
    }

    @Test
    void aSweepDoesNotEvaluateAgainAJobWhoseEveryOfferingIsFull() {
        capacity(G6, 0);
        String team = team(Map.of(G6, 1));
        submit(team, job("waiting", entry(G6, 1)));
        awaitEvaluation(team, "waiting");

        awaitSweeps(1); // and the wake-ups of the submission and the team's set-up, which may evaluate it again
        int repeats = repeats(team, "waiting");
        awaitSweeps(3);

        assertThat(repeats(team, "waiting")).as("repeats counted by the sweeps").isEqualTo(repeats);
    }

    @Test
    void aReleaseTooSmallForALongWaiterIsHeldForItNotTakenByALaterSmallJob() {
        capacity(P4D, 2);
        String team = team(Map.of(P4D, 2));
        submit(team, job("small-1", entry(P4D, 1)));
        submit(team, job("small-2", entry(P4D, 1)));
        awaitStatus(team, "small-2", "RUNNING");
        var big = job("big", entry(P4D, 2));
        big.put("expectedRuntimeSeconds", 1); // it holds once it has waited past its expected run too
        Instant submitted = Instant.parse(submit(team, big).get("createdAt").asString());
        submit(team, job("small-3", entry(P4D, 1)));
        await().atMost(Duration.ofSeconds(5)).until(() -> Instant.now().isAfter(submitted.plusSeconds(1)));

        expect(api.post("/api/v1/teams/" + team + "/jobs/small-1/stop", Map.of()), 200);
        awaitStatus(team, "small-1", "STOPPED");

        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(reasons(evaluations(team, "small-3")
                .get(0))).anyMatch(reason -> reason.contains("held for job")));
        assertThat(describe(team, "small-3").get("status").asString()).isEqualTo("PENDING");
        expect(api.post("/api/v1/teams/" + team + "/jobs/small-2/stop", Map.of()), 200);
        assertThat(awaitStatus(team, "big", "RUNNING").get("selection").get("instanceCount").asInt()).isEqualTo(2);
        capacity(P4D, 0);
    }

    private void awaitSweeps(int count) {
        double from = sweeps();
        await().atMost(Duration.ofSeconds(10)).until(() -> sweeps() >= from + count);
    }

    private int repeats(String team, String job) {
        return jdbc.sql("""
                        SELECT coalesce(sum(r.repeats), 0) FROM evaluation_repeats r
                          JOIN job_evaluations e ON e.id = r.evaluation_id JOIN jobs j ON j.id = e.job_id
                         WHERE j.team = ? AND j.name = ?""").param(team).param(job).query(Integer.class).single();
    }

    private double sweeps() {
        return registry.get("spillover.scheduling.cycle").tag("scope", "sweep").timer().count();
    }

    private List<Boolean> pendingEntries(String team, String job) {
        return jdbc.sql("SELECT e.pending FROM job_entries e JOIN jobs j ON j.id = e.job_id"
                        + " WHERE j.team = ? AND j.name = ? ORDER BY e.idx")
                .params(team, job).query(Boolean.class).list();
    }
}
