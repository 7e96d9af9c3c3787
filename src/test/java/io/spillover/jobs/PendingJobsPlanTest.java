package io.spillover.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillover.placement.OfferingKey;
import io.spillover.support.ApiTest;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * How PostgreSQL runs the cycle's look-up of the jobs a release concerns, on a skewed queue as real ones are:
 * 20,000 pending jobs of one team wait on one type and one job on another. When the rare type frees, the
 * look-up must go to its pending entries by index, not scan the queue (the 100,000-pending benchmark measured
 * 100 ms a release when it did). The types have no offering, so no cycle touches these jobs.
 */
class PendingJobsPlanTest extends ApiTest {

    private static final String CROWDED = "ml.plan-test.crowded";
    private static final String RARE = "ml.plan-test.rare";
    private static final int QUEUE = 20_000;

    @Autowired
    JdbcClient jdbc;

    private String team;
    private UUID rareJob;

    @BeforeEach
    void fillASkewedQueue() {
        team = team(Map.of());
        jdbc.sql("""
                INSERT INTO jobs (id, team, name, kind, status, max_pending_seconds, priority, spec, created_at,
                                  pending_deadline, last_evaluation_id)
                SELECT gen_random_uuid(), ?, 'queued-' || g, 'TRAINING', 'PENDING', 86400, 0, '{}'::jsonb,
                       now() + g * interval '1 ms', now() + interval '1 day', 0
                  FROM generate_series(1, ?) g""").params(team, QUEUE).update();
        jdbc.sql("""
                INSERT INTO job_entries (job_id, idx, instance_type, instance_count, region)
                SELECT id, 0, CASE WHEN name = 'queued-7' THEN ? ELSE ? END, 1, 'us-east-1' FROM jobs WHERE team = ?""")
                .params(RARE, CROWDED, team).update();
        jdbc.sql("ANALYZE jobs").update();
        jdbc.sql("ANALYZE job_entries").update();
        rareJob = jdbc.sql("SELECT id FROM jobs WHERE team = ? AND name = 'queued-7'").param(team)
                .query(UUID.class).single();
    }

    @AfterEach
    void emptyIt() {
        jdbc.sql("UPDATE jobs SET status = 'STOPPED', ended_at = now() WHERE team = ? AND status = 'PENDING'")
                .param(team).update();
    }

    @Test
    void aReleaseOfTheRareTypeReadsItsPendingEntriesByIndexNotTheQueue() {
        var rare = new OfferingKey("us-east-1", RARE, OfferingKey.ON_DEMAND);
        var query = PendingJobs.concernedQuery(Set.of(), Set.of(team), Set.of(rare), List.of(rare));

        assertThat(jdbc.sql(query.sql()).params(query.params()).query(UUID.class).list()).containsExactly(rareJob);
        String plan = String.join("\n", jdbc.sql("EXPLAIN " + query.sql()).params(query.params())
                .query(String.class).list());
        assertThat(plan).contains("job_entries_pending_offering").doesNotContain("Seq Scan");
    }

    @Test
    void aCycleForANamedJobAloneTouchesNoOtherPart() {
        var rare = new OfferingKey("us-east-1", RARE, OfferingKey.ON_DEMAND);
        var query = PendingJobs.concernedQuery(Set.of(rareJob), Set.of(), Set.of(), List.of(rare));

        String plan = String.join("\n", jdbc.sql("EXPLAIN " + query.sql()).params(query.params())
                .query(String.class).list());
        assertThat(plan).doesNotContain("Seq Scan").doesNotContain("Hash");
    }
}
