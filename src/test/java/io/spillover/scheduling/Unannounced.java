package io.spillover.scheduling;

import org.springframework.jdbc.core.simple.JdbcClient;

/** Changes written behind the scheduler's back: no event announces them, so only a cycle that looks finds them. */
final class Unannounced {

    private Unannounced() {
    }

    /** Sets the on-demand capacity of an instance type in us-east-1, as the admin API would but without its event. */
    static void capacity(JdbcClient jdbc, String instanceType, int instances) {
        jdbc.sql("UPDATE offerings SET total = ? WHERE instance_type = ? AND region = 'us-east-1'"
                + " AND source = 'on-demand'").params(instances, instanceType).update();
    }
}
