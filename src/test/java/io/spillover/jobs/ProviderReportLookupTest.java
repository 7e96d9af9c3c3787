package io.spillover.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillover.support.ApiTest;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * What a provider reports names the attempt by its provider job name; the job is found by an index on it, not by a
 * scan of every job (with 100,000 pending, each start and end of a job read them all before its report applied).
 */
class ProviderReportLookupTest extends ApiTest {

    private static final String G5 = "ml.g5.12xlarge";

    @Autowired
    JdbcClient jdbc;

    @Autowired
    Jobs jobs;

    @Autowired
    TransactionTemplate transactions;

    @Test
    void aReportFindsItsJobByTheProviderJobNameThroughAnIndex() {
        capacity(G5, 1);
        String team = team(Map.of(G5, 1));
        submit(team, job("reported", entry(G5, 1)));
        awaitStatus(team, "reported", "RUNNING");
        String name = jdbc.sql("SELECT provider_job_name FROM jobs WHERE team = ? AND name = 'reported'").param(team)
                .query(String.class).single();

        assertThat(jobs.findByProviderJobName(name)).map(Job::name).contains("reported");
        String plan = transactions.execute(tx -> {
            // the planner's last resort: a scan is chosen only when no index can answer
            jdbc.sql("SET LOCAL enable_seqscan = off").update();
            return String.join("\n", jdbc.sql("EXPLAIN SELECT id FROM jobs WHERE provider_job_name = ?").param(name)
                    .query(String.class).list());
        });
        assertThat(plan).contains("jobs_by_provider_job_name").doesNotContain("Seq Scan");
        capacity(G5, 0);
    }
}
