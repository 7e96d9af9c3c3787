package io.spillover.support;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.boot.test.util.TestPropertyValues;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * One real PostgreSQL for the whole test run, started from the same binaries as the embedded default;
 * each Spring context gets a database of its own, given by URL as an external database would be.
 */
public final class TestDatabase {

    private static final AtomicInteger DATABASES = new AtomicInteger();
    private static EmbeddedPostgres postgres;

    private TestDatabase() {
    }

    /** A fresh, empty database; its JDBC URL. */
    public static synchronized String newDatabase() {
        String name = "spillover_test_" + DATABASES.incrementAndGet();
        try (Connection connection = server().getPostgresDatabase().getConnection()) {
            connection.createStatement().execute("CREATE DATABASE " + name);
        } catch (SQLException e) {
            throw new IllegalStateException("could not create test database " + name, e);
        }
        return server().getJdbcUrl("postgres", name);
    }

    private static EmbeddedPostgres server() {
        if (postgres == null) {
            try {
                postgres = EmbeddedPostgres.builder().start();
            } catch (IOException e) {
                throw new UncheckedIOException("could not start PostgreSQL for the tests", e);
            }
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    postgres.close();
                } catch (IOException ignored) {
                    // the JVM is going away
                }
            }));
        }
        return postgres;
    }

    /** Points a test context at a new database of the shared server. */
    public static class Initializer implements ApplicationContextInitializer<ConfigurableApplicationContext> {

        @Override
        public void initialize(ConfigurableApplicationContext context) {
            TestPropertyValues.of("spring.datasource.url=" + newDatabase(), "spring.datasource.username=postgres")
                    .applyTo(context);
        }
    }
}
