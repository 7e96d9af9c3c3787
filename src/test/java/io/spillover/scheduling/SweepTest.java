package io.spillover.scheduling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.MeterRegistry;
import io.spillover.support.ApiTest;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.TestPropertySource;

/**
 * The safety sweep, every half second here: it still starts a job whose capacity appeared without any wake-up
 * (a lost event), and it leaves alone the jobs whose every offering is full, however long the queue.
 */
@TestPropertySource(properties = "spillover.scheduling.sweep-interval=500ms")
class SweepTest extends ApiTest {

    private static final String G5 = "ml.g5.12xlarge";
    private static final String G6 = "ml.g6.48xlarge";

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
        jdbc.sql("UPDATE offerings SET total = 1 WHERE instance_type = ? AND region = 'us-east-1'"
                + " AND source = 'on-demand'").param(G5).update();

        assertThat(awaitStatus(team, "missed", "RUNNING").get("transitions").toString()).contains("PLACED");
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
}
