package io.spillover.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillover.jobs.PendingJobs.Ask;
import io.spillover.jobs.PendingJobs.TypeInRegion;
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
 * How PostgreSQL runs a cycle's reads of the queue on a skewed queue, as real ones are: 20,000 pending jobs of one
 * team wait on one type and one job on another, written in one burst that no ANALYZE has seen (autovacuum is off for
 * the test, so it cannot tidy up behind its back). Every window must be one walk of {@code job_entries_queue} in
 * queue order that stops after its length: no scan of the queue, no sort, no join whose cost depends on the rows
 * the planner believes an offering has (that belief, wrong after a burst, cost a release 14 s: issue 29). The types
 * have no offering, so no cycle touches these jobs.
 */
class PendingJobsPlanTest extends ApiTest {

    private static final String CROWDED = "ml.plan-test.crowded";
    private static final String RARE = "ml.plan-test.rare";
    private static final int QUEUE = 20_000;
    private static final TypeInRegion CROWDED_HERE = new TypeInRegion(CROWDED, "us-east-1");
    private static final TypeInRegion RARE_HERE = new TypeInRegion(RARE, "us-east-1");

    @Autowired
    JdbcClient jdbc;

    @Autowired
    PendingJobs queue;

    private String team;
    private UUID rareJob;

    @BeforeEach
    void burstASkewedQueueBehindTheStatisticsBack() {
        team = team(Map.of());
        jdbc.sql("ALTER TABLE jobs SET (autovacuum_enabled = false)").update();
        jdbc.sql("ALTER TABLE job_entries SET (autovacuum_enabled = false)").update();
        jdbc.sql("ANALYZE jobs").update();
        jdbc.sql("ANALYZE job_entries").update();
        jdbc.sql("""
                INSERT INTO jobs (id, team, name, kind, status, max_pending_seconds, priority, spec, created_at,
                                  pending_deadline)
                SELECT gen_random_uuid(), ?, 'queued-' || g, 'TRAINING', 'PENDING', 86400, 0, '{}'::jsonb,
                       now() + g * interval '1 ms', now() + interval '1 day'
                  FROM generate_series(1, ?) g""").params(team, QUEUE).update();
        // evaluated once, so that no sweep names them
        jdbc.sql("INSERT INTO latest_evaluations (job_id, created_at, evaluation_id) SELECT id, created_at, 0 FROM jobs"
                + " WHERE team = ?").param(team).update();
        jdbc.sql("""
                INSERT INTO job_entries (job_id, idx, instance_type, instance_count, region, team, priority, created_at)
                SELECT id, 0, CASE WHEN name = 'queued-7' THEN ? ELSE ? END, 1, 'us-east-1', team, priority, created_at
                  FROM jobs WHERE team = ?""")
                .params(RARE, CROWDED, team).update();
        rareJob = jdbc.sql("SELECT id FROM jobs WHERE team = ? AND name = 'queued-7'").param(team)
                .query(UUID.class).single();
    }

    @AfterEach
    void emptyIt() {
        jdbc.sql("UPDATE jobs SET status = 'STOPPED', ended_at = now() WHERE team = ? AND status = 'PENDING'")
                .param(team).update();
        jdbc.sql("ALTER TABLE jobs RESET (autovacuum_enabled)").update();
        jdbc.sql("ALTER TABLE job_entries RESET (autovacuum_enabled)").update();
    }

    @Test
    void aReleaseOfTheCrowdedTypeReadsOneWindowOfItsLineInQueueOrderByIndex() {
        var ask = new Ask(Set.of(), Map.of(CROWDED_HERE, 1), Set.of(CROWDED_HERE), Set.of(team), null, 100);

        PendingJobs.Heads heads = queue.heads(ask);

        assertThat(heads.jobs()).hasSize(101);
        assertThat(heads.jobs().get(0).createdAt()).isBefore(heads.jobs().get(100).createdAt());
        assertThat(heads.full()).containsOnlyKeys(new PendingJobs.Window(CROWDED_HERE, team));
        assertThat(plan(ask)).contains("job_entries_queue").doesNotContain("Seq Scan").doesNotContain("Sort")
                .doesNotContain("Bitmap").doesNotContain("Hash");
    }

    @Test
    void aTeamsHeadroomGrowingReadsItsWindowOnEveryFreeOfferingByIndex() {
        var ask = new Ask(Set.of(), Map.of(CROWDED_HERE, 2, RARE_HERE, 1), Set.of(), Set.of(team), null, 10);

        PendingJobs.Heads heads = queue.heads(ask);

        assertThat(heads.jobs()).hasSize(13).extracting(QueuedJob::id).contains(rareJob);
        assertThat(heads.full()).containsOnlyKeys(new PendingJobs.Window(CROWDED_HERE, team));
        assertThat(plan(ask)).contains("job_entries_queue").doesNotContain("Seq Scan").doesNotContain("Sort")
                .doesNotContain("Bitmap");
    }

    @Test
    void aNamedJobThatCouldTakeAFreeInstanceIsReadWithTheLineWaitingForIt() {
        UUID late = jdbc.sql("SELECT id FROM jobs WHERE team = ? AND name = 'queued-19000'").param(team)
                .query(UUID.class).single();
        var ask = new Ask(Set.of(late), Map.of(CROWDED_HERE, 1), Set.of(), Set.of(), null, 10);

        PendingJobs.Heads heads = queue.heads(ask);

        assertThat(heads.jobs()).hasSize(12).extracting(QueuedJob::id).endsWith(late);
        assertThat(heads.jobs().get(0).createdAt()).isBefore(heads.jobs().get(10).createdAt());
        assertThat(heads.full()).containsOnlyKeys(new PendingJobs.Window(CROWDED_HERE, team));
    }

    @Test
    void jobsTooBigForWhatIsFreeAreSkippedUnlessOldEnoughToHoldIt() {
        jdbc.sql("UPDATE job_entries SET instance_count = 4 WHERE team = ? AND job_id <> ?").params(team, rareJob)
                .update();
        var young = new Ask(Set.of(), Map.of(CROWDED_HERE, 2, RARE_HERE, 2), Set.of(CROWDED_HERE, RARE_HERE), Set.of(),
                null, 10);
        var old = new Ask(Set.of(), Map.of(CROWDED_HERE, 2), Set.of(CROWDED_HERE), Set.of(),
                java.time.Instant.now().plusSeconds(3600), 10);

        assertThat(queue.heads(young).jobs()).extracting(QueuedJob::id).containsExactly(rareJob);
        assertThat(queue.heads(old).jobs()).hasSize(12);
    }

    @Test
    void aStrictTeamsHeadIsReadInQueueOrderByIndexOnceTheStatisticsSeeTheBurst() {
        jdbc.sql("ANALYZE jobs").update(); // as QueueStatistics does after a burst

        List<QueuedJob> head = queue.teamHeads(Set.of(team), 5);

        assertThat(head).hasSize(5);
        String plan = String.join("\n", jdbc.sql("""
                EXPLAIN SELECT h.id FROM unnest(CAST(ARRAY['%s'] AS text[])) AS t(team) CROSS JOIN LATERAL (
                       SELECT j.id FROM jobs j WHERE j.team = t.team AND j.status = 'PENDING'
                        ORDER BY %s LIMIT 5) h""".formatted(team, PendingJobs.QUEUE_ORDER)).query(String.class).list());
        assertThat(plan).contains("jobs_team_queue").doesNotContain("Seq Scan").doesNotContain("Sort");
    }

    @Test
    void anEstimationReadsEachTeamsWindowOnEveryTypeByIndexFindingTypesAndTeamsByProbes() {
        List<QueuedJob> windows = queue.windows(null, 50);

        assertThat(windows).hasSize(51).extracting(QueuedJob::id).contains(rareJob);
        for (var offerings : java.util.Arrays.asList(null, List.of(OfferingKey.onDemand("us-east-1", CROWDED)))) {
            var query = PendingJobs.estimationWindowsQuery(offerings, 50);
            assertThat(String.join("\n", jdbc.sql("EXPLAIN " + query.sql()).params(query.params())
                    .query(String.class).list())).contains("job_entries_queue").doesNotContain("Seq Scan")
                    .doesNotContain("Bitmap").doesNotContain("Hash Join");
        }
    }

    @Test
    void nothingToReadReadsNothing() {
        assertThat(PendingJobs.windowsQuery(new Ask(Set.of(rareJob), Map.of(), Set.of(), Set.of(team), null, 10)))
                .isNull();
        assertThat(queue.heads(new Ask(Set.of(rareJob), Map.of(), Set.of(), Set.of(team), null, 10)).jobs())
                .extracting(QueuedJob::id).containsExactly(rareJob);
    }

    private String plan(Ask ask) {
        var query = PendingJobs.windowsQuery(ask);
        return String.join("\n", jdbc.sql("EXPLAIN " + query.sql()).params(query.params()).query(String.class).list());
    }
}
