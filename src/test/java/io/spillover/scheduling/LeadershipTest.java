package io.spillover.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import io.spillover.support.TestDatabase;
import java.time.Duration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.simple.JdbcClient;

/** One instance schedules at a time; when it goes away, another takes over. */
class LeadershipTest {

    private final HikariDataSource dataSource = new HikariDataSource();

    {
        dataSource.setJdbcUrl(TestDatabase.newDatabase());
        dataSource.setUsername("postgres");
    }

    @AfterEach
    void close() {
        dataSource.close();
    }

    @Test
    void onlyOneInstanceLeadsAndAnotherTakesOverWhenItResigns() {
        var first = new Leadership(dataSource);
        var second = new Leadership(dataSource);

        assertThat(first.lead()).isTrue();
        assertThat(second.lead()).isFalse();
        assertThat(first.lead()).as("the leader keeps leading").isTrue();

        first.resign();

        assertThat(second.lead()).isTrue();
        assertThat(first.lead()).isFalse();
        second.resign();
    }

    @Test
    void anotherInstanceTakesOverWhenTheLeadersConnectionDies() {
        var first = new Leadership(dataSource);
        var second = new Leadership(dataSource);
        assertThat(first.lead()).isTrue();

        JdbcClient.create(dataSource).sql("SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory'"
                        + " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())")
                .query().listOfRows();

        // The killed backend lets go of the lock as it exits, a moment after the signal.
        Awaitility.await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(20)).until(second::lead);
        assertThat(first.lead()).as("the old leader notices it lost the lock").isFalse();
        second.resign();
    }
}
