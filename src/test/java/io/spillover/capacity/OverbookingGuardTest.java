package io.spillover.capacity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.spillover.support.ApiTest;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The database, not only the scheduler, refuses overbooking: even a second scheduler writing counters
 * directly could not book past an offering's total or a team's quota. Limits may still shrink below use.
 */
class OverbookingGuardTest extends ApiTest {

    @Autowired
    JdbcClient jdbc;

    @Test
    void refusesToBookAnOfferingPastItsTotalButLetsItShrinkBelowUse() {
        capacity("ml.g5.48xlarge", 2);
        String offering = "region = 'us-east-1' AND instance_type = 'ml.g5.48xlarge' AND source = 'on-demand'";

        assertThatThrownBy(() -> jdbc.sql("UPDATE offerings SET in_use = in_use + 3 WHERE " + offering).update())
                .hasStackTraceContaining("overbooking refused");
        jdbc.sql("UPDATE offerings SET in_use = in_use + 2 WHERE " + offering).update();
        jdbc.sql("UPDATE offerings SET total = 1 WHERE " + offering).update();
        assertThatThrownBy(() -> jdbc.sql("UPDATE offerings SET in_use = in_use + 1 WHERE " + offering).update())
                .hasStackTraceContaining("overbooking refused");
        jdbc.sql("UPDATE offerings SET in_use = in_use - 2 WHERE " + offering).update();
        assertThat(jdbc.sql("SELECT in_use FROM offerings WHERE " + offering).query(Integer.class).single()).isZero();
    }

    @Test
    void refusesToBookATeamPastItsQuotaOrCaps() {
        String team = team(Map.of("ml.g5.48xlarge", 1), 8, 1);

        assertThatThrownBy(() -> jdbc.sql("UPDATE team_quotas SET in_use = 2 WHERE team = ?").param(team).update())
                .hasStackTraceContaining("overbooking refused");
        assertThatThrownBy(() -> jdbc.sql("UPDATE teams SET accelerators_in_use = 9 WHERE name = ?").param(team)
                .update()).hasStackTraceContaining("overbooking refused");
        assertThatThrownBy(() -> jdbc.sql("UPDATE teams SET jobs_in_use = 2 WHERE name = ?").param(team).update())
                .hasStackTraceContaining("overbooking refused");
    }
}
