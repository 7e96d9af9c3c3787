package io.spillover.system;

import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.springframework.jdbc.datasource.DelegatingDataSource;

/**
 * The application's DataSource as every repository, transaction manager and JPA sees it: connections come from the
 * application's pool, except on a thread that runs work through a {@link DedicatedPool}, which gets them from that
 * pool. So work on a pool of its own needs no repositories of its own: it calls the usual ones.
 */
final class RoutedDataSource extends DelegatingDataSource implements AutoCloseable {

    /** The pool this thread's connections come from instead of the application's; null for the application's. */
    static final ThreadLocal<DataSource> ROUTE = new ThreadLocal<>();

    RoutedDataSource(DataSource application) {
        super(application);
    }

    @Override
    public Connection getConnection() throws SQLException {
        DataSource routed = ROUTE.get();
        return routed != null ? routed.getConnection() : obtainTargetDataSource().getConnection();
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        DataSource routed = ROUTE.get();
        return routed != null ? routed.getConnection(username, password)
                : obtainTargetDataSource().getConnection(username, password);
    }

    /** Closes the application's pool with the context, as the bean it wraps would have been closed. */
    @Override
    public void close() throws Exception {
        if (obtainTargetDataSource() instanceof AutoCloseable pool) {
            pool.close();
        }
    }
}
