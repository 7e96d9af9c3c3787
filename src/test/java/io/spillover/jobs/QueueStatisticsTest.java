package io.spillover.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.spillover.support.ApiTest;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * A burst of submissions has PostgreSQL's statistics refreshed on every table that holds a row per queued job, so
 * that no statement keeps a plan made while the table was small: the evaluations' write kept a hash join over the
 * whole of {@code latest_evaluations} (issue 32) until autovacuum came round.
 */
class QueueStatisticsTest extends ApiTest {

    private static final String TABLES = "'jobs', 'job_entries', 'latest_evaluations', 'job_estimates'";

    @Autowired
    JdbcClient jdbc;

    @Autowired
    TransactionTemplate transactions;

    @Test
    void aBurstOfSubmissionsHasEveryTableWithARowPerQueuedJobAnalyzed() {
        Map<String, Long> before = analyses();
        var statistics = new QueueStatistics(jdbc, transactions, Clock.systemUTC());
        try {
            statistics.stored(QueueStatistics.BURST);

            await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50)).untilAsserted(() ->
                    assertThat(analyses()).hasSize(4).allSatisfy((table, analyzed) ->
                            assertThat(analyzed).as(table).isGreaterThan(before.get(table))));
        } finally {
            statistics.stop();
        }
    }

    /** How often each table was analyzed by a statement (not by autovacuum, which counts apart). */
    private Map<String, Long> analyses() {
        return jdbc.sql("SELECT relname, analyze_count FROM pg_stat_user_tables WHERE relname IN (" + TABLES + ")")
                .query((rs, n) -> Map.entry(rs.getString(1), rs.getLong(2))).list().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    }
}
