package io.spillover.estimates;

import io.spillover.scheduling.Leadership;
import io.spillover.system.DedicatedPool;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether this instance estimates now, by {@code spillover.estimates.runs-on}: the instance that schedules; or one that
 * does not, holding a PostgreSQL advisory lock of the estimator's own on a connection of the estimator's pool (so one
 * standby estimates at a time, and another takes over when it dies or starts to schedule); or none.
 */
class EstimatorRole {

    /** The advisory lock's key: "estimate" in ASCII, apart from the scheduler's. */
    static final long LOCK_KEY = 0x657374696d617465L;
    private static final Logger log = LoggerFactory.getLogger(EstimatorRole.class);

    private final EstimatesProperties.RunsOn runsOn;
    private final Leadership leadership;
    private final DedicatedPool pool;
    private Connection lock;
    /** Whether the last check found this instance not scheduling: a standby estimates from the second on. */
    private boolean standby;

    EstimatorRole(EstimatesProperties.RunsOn runsOn, Leadership leadership, DedicatedPool pool) {
        this.runsOn = runsOn;
        this.leadership = leadership;
        this.pool = pool;
    }

    /** Whether this instance estimates now; asked before each estimation, on the estimator's thread. */
    boolean estimates() {
        return switch (runsOn) {
            case SCHEDULER -> leadership.leading();
            case STANDBY -> {
                if (leadership.leading()) {
                    standby = false;
                    release();
                    yield false;
                }
                if (!standby) {
                    standby = true; // seen once; at the next check it has had time to try for the lead
                    yield false;
                }
                yield holdLock();
            }
            case NONE -> false;
        };
    }

    private boolean holdLock() {
        if (lock != null) {
            if (valid(lock)) {
                return true;
            }
            log.warn("Lost the estimator's lock: its database connection broke");
            close(lock);
            lock = null;
        }
        Connection tried = null;
        try {
            tried = pool.connection();
            tried.setAutoCommit(true);
            try (var statement = tried.prepareStatement("SELECT pg_try_advisory_lock(?)")) {
                statement.setLong(1, LOCK_KEY);
                try (ResultSet rs = statement.executeQuery()) {
                    if (rs.next() && rs.getBoolean(1)) {
                        log.info("This instance now estimates the pending jobs' starts");
                        lock = tried;
                        return true;
                    }
                }
            }
        } catch (SQLException e) {
            log.debug("Could not try for the estimator's lock: {}", e.getMessage());
        }
        close(tried);
        return false;
    }

    /** Lets another instance estimate. The connection goes back to the pool, so the lock is given up first. */
    void release() {
        if (lock == null) {
            return;
        }
        try (var statement = lock.prepareStatement("SELECT pg_advisory_unlock(?)")) {
            statement.setLong(1, LOCK_KEY);
            statement.execute();
        } catch (SQLException e) {
            log.debug("Unlocking failed; a broken connection holds no lock", e);
        }
        close(lock);
        lock = null;
    }

    private static boolean valid(Connection connection) {
        try {
            return connection.isValid(2);
        } catch (SQLException e) {
            return false;
        }
    }

    private static void close(Connection connection) {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException e) {
                log.debug("Closing a connection of the estimator's pool failed", e);
            }
        }
    }
}
