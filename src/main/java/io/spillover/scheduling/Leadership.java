package io.spillover.scheduling;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Which instance schedules: the one holding a PostgreSQL session-level advisory lock. The lock lives as
 * long as its connection, so an instance that dies or loses its database loses it, and another takes over.
 */
@Component
public class Leadership {

    /** The advisory lock's key: "spillover" in ASCII, so it does not clash with other users of the database. */
    static final long LOCK_KEY = 0x7370696c6c6f76L;
    private static final Logger log = LoggerFactory.getLogger(Leadership.class);

    private final DataSource dataSource;
    private Connection connection;
    private volatile boolean leading;

    Leadership(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** Whether this instance held the lock when last asked; for metrics and health, without a database call. */
    public boolean leading() {
        return leading;
    }

    /** Whether this instance leads now: keeps the lock it holds, or tries to take it. */
    synchronized boolean lead() {
        leading = tryLead();
        return leading;
    }

    private boolean tryLead() {
        if (connection != null) {
            if (alive()) {
                return true;
            }
            log.warn("Lost the scheduler lock: its database connection broke");
            closeQuietly();
        }
        try {
            connection = dataSource.getConnection();
            connection.setAutoCommit(true);
            try (var statement = connection.prepareStatement("SELECT pg_try_advisory_lock(?)")) {
                statement.setLong(1, LOCK_KEY);
                try (ResultSet rs = statement.executeQuery()) {
                    if (rs.next() && rs.getBoolean(1)) {
                        log.info("This instance is now the scheduler");
                        return true;
                    }
                }
            }
        } catch (SQLException e) {
            log.warn("Could not try for the scheduler lock: {}", e.getMessage());
        }
        closeQuietly();
        return false;
    }

    synchronized void resign() {
        leading = false;
        if (connection != null) {
            try (var statement = connection.prepareStatement("SELECT pg_advisory_unlock(?)")) {
                statement.setLong(1, LOCK_KEY);
                statement.execute();
            } catch (SQLException e) {
                log.debug("Unlock failed; closing the connection frees the lock anyway", e);
            }
            closeQuietly();
        }
    }

    private boolean alive() {
        try {
            return connection.isValid(2);
        } catch (SQLException e) {
            return false;
        }
    }

    private void closeQuietly() {
        try {
            if (connection != null) {
                connection.close();
            }
        } catch (SQLException e) {
            log.debug("Closing the scheduler lock's connection failed", e);
        }
        connection = null;
    }
}
