package io.spillover.system;

import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Repeatable-read snapshots for one statement. Spring gives a transaction its isolation level through the connection:
 * it asks the driver for the level in use (a {@code SHOW}), sets the session's ({@code SET}) and sets it back once the
 * transaction is over (another): three round trips around a snapshot the scheduler takes in every cycle, and the
 * estimator in every estimation. A level given to the transaction itself, as its first statement, costs one, and ends
 * with the transaction.
 */
public final class Snapshots {

    private Snapshots() {
    }

    /**
     * Makes the running transaction read from one snapshot, taken at its first read. PostgreSQL refuses this once the
     * transaction has read anything, so a caller that joins a transaction begun elsewhere fails at once rather than
     * reading at another level than it needs.
     */
    public static void repeatableRead(JdbcClient jdbc) {
        jdbc.sql("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ").update();
    }
}
