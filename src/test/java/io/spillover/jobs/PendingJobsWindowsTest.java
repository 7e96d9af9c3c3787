package io.spillover.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillover.placement.OfferingKey;
import io.spillover.support.ApiTest;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The windows of the queue an estimation follows: the first jobs of each team on each type, in queue order. The
 * types have no offering, so no cycle touches these jobs.
 */
class PendingJobsWindowsTest extends ApiTest {

    private static final String WIDE = "ml.window-test.wide";
    private static final String NARROW = "ml.window-test.narrow";

    @Autowired
    JdbcClient jdbc;

    @Autowired
    PendingJobs pending;

    private final List<String> made = new java.util.ArrayList<>();
    private final Map<UUID, String> named = new java.util.HashMap<>();

    @AfterEach
    void emptyIt() {
        made.forEach(team -> jdbc.sql("UPDATE jobs SET status = 'STOPPED', ended_at = now()"
                + " WHERE team = ? AND status = 'PENDING'").param(team).update());
    }

    @Test
    void eachTeamsFirstJobsOnEachTypeInQueueOrderPriorityFirst() {
        String a = team(Map.of());
        String b = team(Map.of());
        made.addAll(List.of(a, b));
        for (int i = 0; i < 5; i++) {
            queue(a, "a-" + i, 0, i, WIDE);
            queue(b, "b-" + i, 0, 10 + i, WIDE);
        }
        queue(a, "a-urgent", 5, 20, WIDE);
        queue(a, "a-narrow", 0, 30, NARROW);
        queue(a, "a-both", 0, 40, WIDE, NARROW);

        var window = names(pending.windows(List.of(OfferingKey.onDemand("us-east-1", WIDE)), 2));

        assertThat(window).containsExactlyInAnyOrder("a-urgent", "a-0", "b-0", "b-1");
        assertThat(names(pending.windows(List.of(OfferingKey.onDemand("us-east-1", NARROW)), 2)))
                .containsExactlyInAnyOrder("a-narrow", "a-both");
        assertThat(names(pending.windows(null, 2))).contains("a-urgent", "a-0", "b-0", "b-1", "a-narrow", "a-both")
                .doesNotContain("a-1", "b-2");
    }

    @Test
    void aJobsListingSaysWhetherItWaitsAndWhatItLists() {
        String a = team(Map.of());
        made.add(a);
        UUID both = queue(a, "both", 0, 0, WIDE, NARROW);
        jdbc.sql("UPDATE jobs SET status = 'STOPPED', ended_at = now() WHERE id = ?").param(both).update();

        List<PendingJobs.Listing> listed = pending.listings(Set.of(both, UUID.randomUUID()));

        assertThat(listed).containsExactly(new PendingJobs.Listing(both, a, false, 0,
                Instant.parse("2026-12-01T00:00:00Z"),
                List.of(OfferingKey.onDemand("us-east-1", WIDE), OfferingKey.onDemand("us-east-1", NARROW))));
    }

    @Test
    void theSweepFindsTheJobsNoCycleEvaluatedAndForgetsThoseThatLeftTheQueueUnevaluated() {
        String a = team(Map.of());
        made.add(a);
        UUID waiting = queue(a, "never-evaluated", 0, 0, WIDE);
        UUID stopped = queue(a, "stopped-at-once", 0, 1, WIDE);
        // older than anything else in the database, so that they come first
        jdbc.sql("UPDATE latest_evaluations SET evaluation_id = NULL,"
                + " created_at = timestamptz '2000-01-01 00:00:00+00'"
                + " + CASE WHEN job_id = ? THEN interval '1 s' ELSE interval '0' END WHERE job_id IN (?, ?)")
                .params(stopped, waiting, stopped).update();
        jdbc.sql("UPDATE jobs SET status = 'STOPPED', ended_at = now() WHERE id = ?").param(stopped).update();

        assertThat(pending.unevaluated(2)).containsExactly(waiting);
        assertThat(jdbc.sql("SELECT job_id FROM latest_evaluations WHERE job_id IN (?, ?)").params(waiting, stopped)
                .query(UUID.class).list()).containsExactly(waiting);
    }

    private UUID queue(String team, String name, int priority, int second, String... types) {
        UUID id = UUID.randomUUID();
        jdbc.sql("""
                INSERT INTO jobs (id, team, name, kind, status, max_pending_seconds, priority, spec, created_at,
                                  pending_deadline)
                VALUES (?, ?, ?, 'TRAINING', 'PENDING', 86400, ?, '{}'::jsonb,
                        timestamptz '2026-12-01 00:00:00+00' + ? * interval '1 s', now() + interval '1 day')""")
                .params(id, team, name, priority, second).update();
        jdbc.sql("INSERT INTO latest_evaluations (job_id, created_at, evaluation_id) VALUES (?, now(), 0)").param(id)
                .update();
        named.put(id, name);
        for (int i = 0; i < types.length; i++) {
            jdbc.sql("""
                    INSERT INTO job_entries (job_id, idx, instance_type, instance_count, region, team, priority, created_at)
                    SELECT id, ?, ?, 1, 'us-east-1', team, priority, created_at FROM jobs WHERE id = ?""")
                    .params(i, types[i], id).update();
        }
        return id;
    }

    private List<String> names(List<QueuedJob> jobs) {
        return jobs.stream().map(j -> named.get(j.id())).toList();
    }
}
