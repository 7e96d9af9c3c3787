package io.spillover.fleet;

import static org.awaitility.Awaitility.await;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import org.springframework.util.FileSystemUtils;

/**
 * A PostgreSQL of the chaos test's own that it can stop and start again on the same port and data directory,
 * as an operator restarts a database server: the instances keep their JDBC URL and find the same data when
 * it is back. While it is stopped, connections to its port are refused. (The other tests share
 * {@code io.spillover.support.TestDatabase}, which no test may stop.)
 */
final class RestartablePostgres implements AutoCloseable {

    static final String DATABASE = "spillover_chaos";

    private final Path dataDirectory;
    private final int port;
    private EmbeddedPostgres server;
    private int restarts;
    private Duration down = Duration.ZERO;
    private Instant stoppedAt;

    /** Starts a fresh server on an empty data directory and a free port, with an empty database of its own. */
    RestartablePostgres(Path dataDirectory) {
        this.dataDirectory = dataDirectory.toAbsolutePath();
        FileSystemUtils.deleteRecursively(this.dataDirectory.toFile());
        this.port = freePort();
        start();
        try (Connection connection = connect("postgres")) {
            connection.createStatement().execute("CREATE DATABASE " + DATABASE);
        } catch (SQLException e) {
            throw new IllegalStateException("could not create " + DATABASE, e);
        }
    }

    String jdbcUrl() {
        return "jdbc:postgresql://localhost:" + port + "/" + DATABASE;
    }

    /** Stops the server (pg_ctl stop -m fast): every session ends; new connections are refused until {@link #start}. */
    synchronized void stop() {
        try {
            server.close();
        } catch (IOException e) {
            throw new UncheckedIOException("could not stop PostgreSQL", e);
        }
        server = null;
        stoppedAt = Instant.now();
    }

    /** Starts the server again on the same port and data directory; answers once it takes connections. */
    synchronized void start() {
        try {
            server = EmbeddedPostgres.builder().setDataDirectory(dataDirectory.toFile()).setCleanDataDirectory(false)
                    .setPort(port).start();
        } catch (IOException e) {
            throw new UncheckedIOException("could not start PostgreSQL on port " + port, e);
        }
        await("PostgreSQL takes connections").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                .ignoreExceptions().until(() -> {
                    try (Connection connection = connect("postgres")) {
                        return connection.isValid(1);
                    }
                });
        if (stoppedAt != null) {
            restarts++;
            down = down.plus(Duration.between(stoppedAt, Instant.now()));
            stoppedAt = null;
        }
    }

    /** How often the server was stopped and started again. */
    synchronized int restarts() {
        return restarts;
    }

    /** How long, in all, connections to it were refused. */
    synchronized Duration down() {
        return down;
    }

    @Override
    public synchronized void close() {
        if (server != null) {
            stop();
        }
    }

    private Connection connect(String database) throws SQLException {
        return DriverManager.getConnection("jdbc:postgresql://localhost:" + port + "/" + database, "postgres", "");
    }

    private static int freePort() {
        try (var socket = new ServerSocket(0)) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
