package io.spillover.system;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillover.support.ApiTest;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionTemplate;

/** Work run through a pool of its own gets its connections there, through the application's usual repositories. */
class DedicatedPoolTest extends ApiTest {

    @Autowired
    DataSource dataSource;

    @Autowired
    JdbcClient jdbc;

    @Autowired
    TransactionTemplate transactions;

    @Test
    void workOnThePoolUsesItsConnectionsInAndOutOfTransactionsAndNothingElseDoes() {
        try (DedicatedPool pool = DedicatedPool.of(dataSource, "spillover-pool-test", 1)) {
            assertThat(pool.dedicated()).isTrue();

            String plain = pool.call(this::applicationName);
            String inTransaction = pool.call(() -> transactions.execute(status -> applicationName()));

            assertThat(plain).isEqualTo("spillover-pool-test");
            assertThat(inTransaction).isEqualTo("spillover-pool-test");
            assertThat(applicationName()).isNotEqualTo("spillover-pool-test");
        }
    }

    private String applicationName() {
        return jdbc.sql("SELECT current_setting('application_name')").query(String.class).single();
    }
}
