package io.spillover.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.spillover.support.ApiTest;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

/** The log of transitions and evaluations is append-only: the database itself refuses changes. */
class AuditLogTest extends ApiTest {

    @Autowired
    JdbcClient jdbc;

    @Test
    void theDatabaseRefusesToChangeOrRemoveTransitionsAndEvaluations() {
        capacity("ml.m5.xlarge", 1);
        String team = team(Map.of("ml.m5.xlarge", 1));
        submit(team, job("audited", entry("ml.m5.xlarge", 1)));
        awaitStatus(team, "audited", "RUNNING");

        for (String table : new String[] {"job_transitions", "job_evaluations"}) {
            assertThat(jdbc.sql("SELECT count(*) FROM " + table + " WHERE team = ?").param(team)
                    .query(Integer.class).single()).isPositive();
            assertThatThrownBy(() -> jdbc.sql("UPDATE " + table + " SET team = 'someone-else' WHERE team = ?")
                    .param(team).update()).hasStackTraceContaining("append-only");
            assertThatThrownBy(() -> jdbc.sql("DELETE FROM " + table + " WHERE team = ?").param(team).update())
                    .hasStackTraceContaining("append-only");
            assertThatThrownBy(() -> jdbc.sql("TRUNCATE " + table + " CASCADE").update())
                    .hasStackTraceContaining("append-only");
        }
    }
}
