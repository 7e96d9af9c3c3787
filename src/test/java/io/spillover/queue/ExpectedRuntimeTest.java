package io.spillover.queue;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillover.catalog.Catalog;
import io.spillover.placement.ExpectedRuns;
import io.spillover.support.ApiTest;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * What the queue expects a job to run, from the platform's history on PostgreSQL: its sweep's runs, its own
 * maximum run time, else the median of its profile's runs in its team once the profile has five, else the team's
 * median.
 */
class ExpectedRuntimeTest extends ApiTest {

    private static final String TYPE = "ml.g6.48xlarge";

    @Autowired
    RunHistory history;
    @Autowired
    TeamWeights weights;
    @Autowired
    Catalog catalog;
    @Autowired
    QueueProperties properties;
    @Autowired
    Clock clock;
    @Autowired
    JdbcClient jdbc;

    @Test
    void aProfileWithFiveRunsIsExpectedToRunItsOwnMedianAndOthersTheirTeams() {
        capacity(TYPE, 0); // the jobs wait, to be ended here
        String team = team(Map.of(TYPE, 1));
        Instant now = clock.instant();
        // four short sweeps don't make a profile's median yet; five long pre-trainings do
        for (int i = 0; i < 4; i++) {
            ended(team, "sweep-" + i, "sweep", Duration.ofMinutes(10), now.minusSeconds(3_600 + i));
        }
        for (int i = 0; i < 5; i++) {
            ended(team, "pretrain-" + i, "pretrain", Duration.ofHours(20 + i), now.minusSeconds(60 + i));
        }

        FairShares.Snapshot snapshot = fresh().forCycle(List.of());

        assertThat(snapshot.expectedRuntime(team, "pretrain", null)).isEqualTo(Duration.ofHours(22));
        // the team's median of all nine runs (the lower one, as percentile_disc takes it) is the fifth: 20 h
        assertThat(snapshot.typical()).containsEntry(team, Duration.ofHours(20));
        assertThat(snapshot.expectedRuntime(team, "sweep", null)).isEqualTo(Duration.ofHours(20));
        assertThat(snapshot.expectedRuntime(team, null, null)).isEqualTo(Duration.ofHours(20));
        assertThat(snapshot.expectedRuntime(team, "pretrain", Duration.ofMinutes(30)))
                .as("the job's own maximum run time is its user's word").isEqualTo(Duration.ofMinutes(30));
    }

    @Test
    void jobsOfOneListSubmittedEachWithinFiveMinutesOfTheOneBeforeFormOneSweep() {
        capacity(TYPE, 0);
        capacity("ml.g6e.48xlarge", 0);
        String team = team(Map.of(TYPE, 1, "ml.g6e.48xlarge", 1));
        submit(team, job("first", entry(TYPE, 1)));
        backdate(team, "first", ExpectedRuns.SWEEP_GAP.minusSeconds(30));
        submit(team, job("second", entry(TYPE, 1)));
        submit(team, job("other-list", entry(TYPE, 1), entry("ml.g6e.48xlarge", 1)));
        backdate(team, "first", ExpectedRuns.SWEEP_GAP.plusSeconds(60));
        backdate(team, "second", ExpectedRuns.SWEEP_GAP.plusSeconds(30));
        submit(team, job("third", entry(TYPE, 1)));

        assertThat(sweep(team, "second")).as("4:30 after the first").isEqualTo(sweep(team, "first"));
        assertThat(sweep(team, "other-list")).as("another list").isNotEqualTo(sweep(team, "first"))
                .isEqualTo(id(team, "other-list"));
        assertThat(sweep(team, "third")).as("5:30 after the one before").isEqualTo(id(team, "third"));
    }

    @Test
    void theRunsOfASweepsCompletedMembersSpeakForItsWaitingOnes() {
        capacity(TYPE, 0);
        String team = team(Map.of(TYPE, 1));
        Instant now = clock.instant();
        for (int i = 0; i < 5; i++) {
            ended(team, "history-" + i, "search", Duration.ofHours(20), now.minusSeconds(86_400 + i));
        }
        submit(team, job("trial-1", entry(TYPE, 1)));
        submit(team, job("trial-2", entry(TYPE, 1)));
        submit(team, job("trial-3", entry(TYPE, 1)));
        submit(team, job("trial-4", entry(TYPE, 1)));
        UUID sweep = sweep(team, "trial-1");
        complete(team, "trial-1", Duration.ofMinutes(12), now);
        complete(team, "trial-2", Duration.ofMinutes(14), now);

        FairShares.Snapshot snapshot = fresh().forCycle(List.of(sweep));

        assertThat(snapshot.sweeps().get(sweep).ended()).containsExactlyInAnyOrder(Duration.ofMinutes(12),
                Duration.ofMinutes(14));
        assertThat(snapshot.expectedRuntime(team, null, null, sweep)).as("the lower median")
                .isEqualTo(Duration.ofMinutes(12));
        assertThat(snapshot.expectedRuntime(team, null, null)).as("without its sweep: the team's median")
                .isEqualTo(Duration.ofHours(20));
        assertThat(snapshot.expectedRuntime(team, null, Duration.ofMinutes(5), sweep)).as("bounded by its maximum")
                .isEqualTo(Duration.ofMinutes(5));
    }

    /** Fair shares read afresh, as no other test's cached history stands between. */
    private FairShares fresh() {
        return new FairShares(history, weights, catalog, properties, clock);
    }

    private UUID sweep(String team, String name) {
        return jdbc.sql("SELECT sweep_id FROM jobs WHERE team = ? AND name = ?").param(team).param(name)
                .query(UUID.class).single();
    }

    private UUID id(String team, String name) {
        return jdbc.sql("SELECT id FROM jobs WHERE team = ? AND name = ?").param(team).param(name)
                .query(UUID.class).single();
    }

    /** As if the job had been submitted this long ago. */
    private void backdate(String team, String name, Duration ago) {
        jdbc.sql("UPDATE jobs SET created_at = ? WHERE team = ? AND name = ?")
                .param(Timestamp.from(clock.instant().minus(ago))).param(team).param(name).update();
    }

    /** A pending job of the team that completed after running this long, written as the scheduler writes an end. */
    private void complete(String team, String name, Duration run, Instant endedAt) {
        int updated = jdbc.sql("""
                        UPDATE jobs SET status = 'COMPLETED', started_at = :started, ended_at = :ended
                         WHERE team = :team AND name = :name AND status = 'PENDING'""")
                .param("started", Timestamp.from(endedAt.minus(run))).param("ended", Timestamp.from(endedAt))
                .param("team", team).param("name", name).update();
        assertThat(updated).as("job %s was still pending", name).isEqualTo(1);
    }

    /** A job of the team that completed after running this long, written as the scheduler writes an end. */
    private void ended(String team, String name, String profile, Duration run, Instant endedAt) {
        submit(team, job(name, entry(TYPE, 1)));
        int updated = jdbc.sql("""
                        UPDATE jobs SET status = 'COMPLETED', profile_name = :profile, profile_version = 1,
                                        created_at = :started, started_at = :started, ended_at = :ended
                         WHERE team = :team AND name = :name AND status = 'PENDING'""")
                .param("profile", profile).param("started", Timestamp.from(endedAt.minus(run)))
                .param("ended", Timestamp.from(endedAt)).param("team", team).param("name", name).update();
        assertThat(updated).as("job %s was still pending", name).isEqualTo(1);
    }
}
