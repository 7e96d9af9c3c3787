package io.spillover.queue;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillover.catalog.Catalog;
import io.spillover.support.ApiTest;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * What the queue expects a job to run, from the platform's history on PostgreSQL: its own maximum run time,
 * else the median of its profile's runs in its team once the profile has five, else the team's median.
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

        FairShares.Snapshot snapshot = fresh().forCycle();

        assertThat(snapshot.expectedRuntime(team, "pretrain", null)).isEqualTo(Duration.ofHours(22));
        // the team's median of all nine runs (the lower one, as percentile_disc takes it) is the fifth: 20 h
        assertThat(snapshot.typical()).containsEntry(team, Duration.ofHours(20));
        assertThat(snapshot.expectedRuntime(team, "sweep", null)).isEqualTo(Duration.ofHours(20));
        assertThat(snapshot.expectedRuntime(team, null, null)).isEqualTo(Duration.ofHours(20));
        assertThat(snapshot.expectedRuntime(team, "pretrain", Duration.ofMinutes(30)))
                .as("the job's own maximum run time is its user's word").isEqualTo(Duration.ofMinutes(30));
    }

    /** Fair shares read afresh, as no other test's cached history stands between. */
    private FairShares fresh() {
        return new FairShares(history, weights, catalog, properties, clock);
    }

    /** A job of the team that completed after running this long, written as the scheduler writes an end. */
    private void ended(String team, String name, String profile, Duration run, Instant endedAt) {
        submit(team, job(name, entry(TYPE, 1)));
        int updated = jdbc.sql("""
                        UPDATE jobs SET status = 'COMPLETED', profile_name = :profile, profile_version = 1,
                                        started_at = :started, ended_at = :ended
                         WHERE team = :team AND name = :name AND status = 'PENDING'""")
                .param("profile", profile).param("started", Timestamp.from(endedAt.minus(run)))
                .param("ended", Timestamp.from(endedAt)).param("team", team).param("name", name).update();
        assertThat(updated).as("job %s was still pending", name).isEqualTo(1);
    }
}
