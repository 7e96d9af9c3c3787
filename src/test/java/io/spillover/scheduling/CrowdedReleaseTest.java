package io.spillover.scheduling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.spillover.support.ApiTest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The case a pipeline hits hardest (issue 29): a sweep of 10,000 jobs submitted through {@code jobs:batch}, every
 * one waiting on the one busy type, and an instance of that type freeing moments later. The next job must start
 * at once, whatever the table's statistics say about the rows the burst just wrote.
 */
class CrowdedReleaseTest extends ApiTest {

    private static final String SCARCE = "ml.c5.2xlarge";
    private static final int SWEEP = 10_000;

    @Autowired
    JdbcClient jdbc;

    private String team;

    @AfterEach
    void emptyTheQueue() {
        jdbc.sql("UPDATE jobs SET status = 'STOPPED', ended_at = now() WHERE team = ? AND status = 'PENDING'")
                .param(team).update();
        for (String started : jdbc.sql("SELECT name FROM jobs WHERE team = ? AND status IN ('STARTING', 'RUNNING')")
                .param(team).query(String.class).list()) {
            api.post("/api/v1/teams/" + team + "/jobs/" + started + "/stop", Map.of());
        }
    }

    @Test
    void aReleaseRightAfterABurstOfTenThousandStartsTheNextJobWithinASecond() {
        capacity(SCARCE, 1);
        team = team(Map.of(SCARCE, 4));
        submit(team, job("holder", entry(SCARCE, 1)));
        awaitStatus(team, "holder", "RUNNING");
        for (int from = 0; from < SWEEP; from += 500) {
            var jobs = new ArrayList<Map<String, Object>>();
            for (int i = from; i < from + 500; i++) {
                jobs.add(job("sweep-" + i, entry(SCARCE, 1)));
            }
            expect(api.post("/api/v1/teams/" + team + "/jobs:batch", Map.of("jobs", jobs)), 201);
        }

        expect(api.post("/api/v1/teams/" + team + "/jobs/holder/stop", Map.of()), 200);

        Instant released = Instant.parse(awaitStatus(team, "holder", "STOPPED").get("endedAt").asString());
        // jobs of one batch share their submission time, so the one that goes first is the queue's, not sweep-0
        Instant started = await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(20))
                .until(this::firstStartOfTheSweep, at -> at != null);
        assertThat(Duration.between(released, started)).isLessThan(Duration.ofSeconds(1));
    }

    @Test
    void aBurstOfSubmissionsIsSeenByThePlannersStatisticsWithinSeconds() {
        capacity(SCARCE, 0);
        team = team(Map.of(SCARCE, 4));
        Instant before = lastAnalyzed();
        for (int from = 0; from < 1_000; from += 500) {
            var jobs = new ArrayList<Map<String, Object>>();
            for (int i = from; i < from + 500; i++) {
                jobs.add(job("burst-" + i, entry(SCARCE, 1)));
            }
            expect(api.post("/api/v1/teams/" + team + "/jobs:batch", Map.of("jobs", jobs)), 201);
        }

        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50))
                .until(this::lastAnalyzed, at -> at != null && (before == null || at.isAfter(before)));
        long waiting = jdbc.sql("SELECT count(*) FROM job_entries WHERE instance_type = ? AND pending").param(SCARCE)
                .query(Long.class).single();
        assertThat(plannedRows("SELECT * FROM job_entries WHERE instance_type = '" + SCARCE + "' AND pending"))
                .as("the planner's rows for the type, against %d there", waiting).isBetween(waiting / 2, waiting * 2);
    }

    /** The rows the planner expects the query to return. */
    private long plannedRows(String query) {
        String plan = jdbc.sql("EXPLAIN (FORMAT JSON) " + query).query(String.class).single();
        var matcher = java.util.regex.Pattern.compile("\"Plan Rows\": (\\d+)").matcher(plan);
        assertThat(matcher.find()).as(plan).isTrue();
        return Long.parseLong(matcher.group(1));
    }

    /** When job_entries was last analyzed by hand (ANALYZE, not autovacuum's). */
    private Instant lastAnalyzed() {
        return jdbc.sql("SELECT last_analyze FROM pg_stat_user_tables WHERE relname = 'job_entries'")
                .query(Instant.class).optional().orElse(null);
    }

    private Instant firstStartOfTheSweep() {
        return jdbc.sql("""
                SELECT min(t.at) FROM job_transitions t JOIN jobs j ON j.id = t.job_id
                 WHERE j.team = ? AND j.name <> 'holder' AND t.to_status = 'STARTING'""")
                .param(team).query(Instant.class).optional().orElse(null);
    }
}
