package io.spillover.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.spillover.providers.ProviderJobChanged;
import io.spillover.providers.ProviderJobStatus;
import io.spillover.support.ApiTest;
import java.sql.Connection;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The same end of a job can be reported twice at once: by the provider's watch and by the scheduler's
 * reconciling sweep, or by two instances that both follow the job. The report that loses the race must
 * release nothing and fail nothing.
 */
class ConcurrentReportsTest extends ApiTest {

    @Autowired
    ProviderReports reports;
    @Autowired
    DataSource dataSource;
    @Autowired
    JdbcClient jdbc;

    @Test
    void aReportOfAnEndThatAnotherReportCommittedFirstReleasesNothingAgain() throws Exception {
        capacity("ml.g6.48xlarge", 1);
        String team = team(Map.of("ml.g6.48xlarge", 1));
        submit(team, job("twice", entry("ml.g6.48xlarge", 1)));
        awaitStatus(team, "twice", "RUNNING");
        UUID id = jdbc.sql("SELECT id FROM jobs WHERE team = ? AND name = 'twice'").param(team).query(UUID.class).single();
        String providerJob = jdbc.sql("SELECT provider_job_name FROM jobs WHERE id = ?").param(id)
                .query(String.class).single();

        CompletableFuture<Void> second;
        try (Connection first = dataSource.getConnection()) {
            // The first report's transaction: it released the job's capacity and ended it, and has not committed.
            first.setAutoCommit(false);
            first.createStatement().executeUpdate("UPDATE offerings SET in_use = in_use - 1 WHERE id ="
                    + " (SELECT offering_id FROM jobs WHERE id = '" + id + "')");
            first.createStatement().executeUpdate("UPDATE team_quotas SET in_use = in_use - 1 WHERE team = '" + team
                    + "' AND instance_type = 'ml.g6.48xlarge'");
            first.createStatement().executeUpdate("UPDATE teams SET accelerators_in_use = accelerators_in_use - 8,"
                    + " jobs_in_use = jobs_in_use - 1 WHERE name = '" + team + "'");
            first.createStatement().executeUpdate("UPDATE jobs SET status = 'COMPLETED', holds_capacity = false,"
                    + " offering_id = NULL, version = version + 1 WHERE id = '" + id + "'");
            // The second report reads the job as it was committed, still holding, and waits on the counters.
            second = CompletableFuture.runAsync(() -> reports.providerChanged(
                    new ProviderJobChanged(providerJob, ProviderJobStatus.COMPLETED, "seen again")));
            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(10))
                    .until(() -> jdbc.sql("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                            + " AND query LIKE 'UPDATE %in_use = in_use - %'").query(Integer.class).single() > 0);
            first.commit();
        }

        second.get(10, TimeUnit.SECONDS);
        assertThat(jdbc.sql("SELECT in_use FROM team_quotas WHERE team = ?").param(team).query(Integer.class).single())
                .isZero();
        assertThat(jdbc.sql("SELECT status FROM jobs WHERE id = ?").param(id).query(String.class).single())
                .isEqualTo("COMPLETED");
    }
}
