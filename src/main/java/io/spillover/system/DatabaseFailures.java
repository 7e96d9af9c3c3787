package io.spillover.system;

import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.transaction.CannotCreateTransactionException;

/** Tells the database being out of reach from other failures, wherever in a cause chain it shows. */
public final class DatabaseFailures {

    private DatabaseFailures() {
    }

    /**
     * Whether the failure is the database being out of reach: a connection refused, closed, timed out or
     * shut down, also when it shows only as the cause of a failed rollback.
     */
    public static boolean isOutage(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof CannotCreateTransactionException || t instanceof DataAccessResourceFailureException
                    || t instanceof SQLTransientConnectionException) {
                return true;
            }
            // SQLSTATE class 08: connection exception; 57P01-57P03: the server is shutting down or starting
            if (t instanceof SQLException sql && sql.getSQLState() != null
                    && (sql.getSQLState().startsWith("08") || sql.getSQLState().startsWith("57P"))) {
                return true;
            }
        }
        return false;
    }
}
