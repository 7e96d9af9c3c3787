package io.spillover.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import javax.sql.DataSource;

/**
 * The database's own limit, measured beside the service's figures in the same run: single-row inserts, each its
 * own transaction (autocommit), on the service's PostgreSQL through its pool, from one client and from several.
 * The JDBC loop stands in for pgbench, which this machine does not have; like pgbench {@code -N} it measures a
 * write and its commit, with fsync on as the service runs it.
 */
final class CommitRate {

    /** Commits per second, and the latency of one commit in milliseconds. */
    record Measured(int clients, int commits, double perSecond, ServiceBench.Percentiles latencyMs) {
    }

    private CommitRate() {
    }

    static Measured measure(DataSource database, int clients, double seconds) throws Exception {
        try (Connection c = database.getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS bench_commits (id bigserial PRIMARY KEY, client int NOT NULL,"
                    + " at timestamptz NOT NULL DEFAULT now())");
        }
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        try {
            long until = System.nanoTime() + (long) (seconds * 1e9);
            var runs = new ArrayList<Future<List<Double>>>();
            for (int i = 0; i < clients; i++) {
                int client = i;
                runs.add(pool.submit(() -> loop(database, client, until)));
            }
            var latencies = Collections.synchronizedList(new ArrayList<Double>());
            long start = System.nanoTime();
            for (Future<List<Double>> run : runs) {
                latencies.addAll(run.get());
            }
            double elapsed = (System.nanoTime() - start) / 1e9;
            return new Measured(clients, latencies.size(), latencies.size() / elapsed,
                    ServiceBench.Percentiles.of(latencies));
        } finally {
            pool.shutdownNow();
            try (Connection c = database.getConnection(); Statement s = c.createStatement()) {
                s.execute("DROP TABLE IF EXISTS bench_commits");
            }
        }
    }

    private static List<Double> loop(DataSource database, int client, long until) throws SQLException {
        var latencies = new ArrayList<Double>();
        try (Connection c = database.getConnection();
             PreparedStatement insert = c.prepareStatement("INSERT INTO bench_commits (client) VALUES (?)")) {
            c.setAutoCommit(true);
            while (System.nanoTime() < until) {
                long t = System.nanoTime();
                insert.setInt(1, client);
                insert.executeUpdate();
                latencies.add((System.nanoTime() - t) / 1e6);
            }
        }
        return latencies;
    }
}
