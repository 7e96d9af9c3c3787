package io.spillover.system;

import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.metrics.micrometer.MicrometerMetricsTrackerFactory;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Properties;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A few database connections of their own, for background work that must never take, or wait for, the connections
 * the API and the scheduler use. Work run through {@link #call} gets every connection its thread asks the
 * application's DataSource for (JDBC, JPA and transactions alike) from this pool instead, so it calls the usual
 * repositories. The pool copies the application's connection settings (URL, user, driver properties), names its
 * connections after itself ({@code application_name} in {@code pg_stat_activity}), and opens them only once work
 * asks for one. Under a DataSource that is not HikariCP's, whose settings it cannot copy, the work runs on the
 * application's pool, and a warning says so.
 */
public final class DedicatedPool implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(DedicatedPool.class);

    private final String name;
    private final DataSource connections;
    private final HikariDataSource own;

    private DedicatedPool(String name, DataSource connections, HikariDataSource own) {
        this.name = name;
        this.connections = connections;
        this.own = own;
    }

    /**
     * @param application the application's DataSource
     * @param name        the pool's name, and its connections' {@code application_name}
     * @param size        the most connections it holds
     */
    public static DedicatedPool of(DataSource application, String name, int size) {
        return of(application, name, size, null);
    }

    /** @param metrics where the pool reports, as the application's does ({@code hikaricp_*{pool=name}}); null for nowhere */
    public static DedicatedPool of(DataSource application, String name, int size, MeterRegistry metrics) {
        HikariDataSource main = hikari(application);
        if (main == null || main.getDataSource() != null) {
            log.warn("The database pool is not one {} can copy; its work shares the application's pool", name);
            return new DedicatedPool(name, application, null);
        }
        var own = new HikariDataSource();
        own.setPoolName(name);
        own.setJdbcUrl(main.getJdbcUrl());
        own.setUsername(main.getUsername());
        own.setPassword(main.getPassword());
        if (main.getDriverClassName() != null) {
            own.setDriverClassName(main.getDriverClassName());
        }
        if (main.getDataSourceClassName() != null) {
            own.setDataSourceClassName(main.getDataSourceClassName());
        }
        var properties = new Properties();
        properties.putAll(main.getDataSourceProperties());
        properties.setProperty("ApplicationName", name);
        own.setDataSourceProperties(properties);
        own.setConnectionInitSql(main.getConnectionInitSql());
        own.setSchema(main.getSchema());
        own.setCatalog(main.getCatalog());
        own.setConnectionTimeout(main.getConnectionTimeout());
        own.setMaximumPoolSize(size);
        own.setMinimumIdle(1);
        if (metrics != null) {
            own.setMetricsTrackerFactory(new MicrometerMetricsTrackerFactory(metrics));
        }
        return new DedicatedPool(name, own, own);
    }

    private static HikariDataSource hikari(DataSource application) {
        try {
            return application.isWrapperFor(HikariDataSource.class) ? application.unwrap(HikariDataSource.class) : null;
        } catch (SQLException e) {
            return null;
        }
    }

    /** Runs the work on this thread with its connections from this pool. */
    public <T> T call(Supplier<T> work) {
        if (own == null) {
            return work.get();
        }
        DataSource before = RoutedDataSource.ROUTE.get();
        RoutedDataSource.ROUTE.set(connections);
        try {
            return work.get();
        } finally {
            RoutedDataSource.ROUTE.set(before);
        }
    }

    public void run(Runnable work) {
        call(() -> {
            work.run();
            return null;
        });
    }

    /** A connection of the pool to hold (for a lock that lives as long as it); the caller closes it. */
    public Connection connection() throws SQLException {
        return connections.getConnection();
    }

    /** Whether the pool is its own, not the application's. */
    public boolean dedicated() {
        return own != null;
    }

    public String name() {
        return name;
    }

    @Override
    public void close() {
        if (own != null) {
            own.close();
        }
    }
}
