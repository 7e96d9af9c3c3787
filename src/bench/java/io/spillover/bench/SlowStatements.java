package io.spillover.bench;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.sql.DataSource;

/**
 * Watches the service's database for statements that run long, for the whole service benchmark: every 10 ms, on a
 * connection of its own, it reads which client statements have been active for more than {@value #THRESHOLD_MS} ms.
 * A statement planned on statistics that lag behind a burst (issue 29) shows here, whichever part of the service
 * ran it: a cycle, a sweep, a submission, the estimator or the console.
 */
final class SlowStatements implements AutoCloseable {

    static final int THRESHOLD_MS = 50;

    /** One statement's text (whitespace folded, cut at 240 characters), how often it was seen running long, and the longest it was seen at. */
    record Seen(String statement, int samples, double longestMs) {
    }

    private final Connection connection;
    private final Map<String, double[]> seen = new ConcurrentHashMap<>();
    private final Thread watcher;
    private volatile boolean watching = true;

    SlowStatements(DataSource service) throws SQLException {
        HikariDataSource pool = service.unwrap(HikariDataSource.class);
        connection = DriverManager.getConnection(pool.getJdbcUrl(), pool.getUsername(), pool.getPassword());
        watcher = new Thread(this::watch, "slow-statements");
        watcher.setDaemon(true);
        watcher.start();
    }

    private void watch() {
        try (Statement statement = connection.createStatement()) {
            while (watching) {
                try (ResultSet rs = statement.executeQuery("""
                        SELECT extract(epoch FROM clock_timestamp() - query_start) * 1000, query
                          FROM pg_stat_activity
                         WHERE state = 'active' AND backend_type = 'client backend' AND pid <> pg_backend_pid()
                           AND clock_timestamp() - query_start > interval '%d milliseconds'""".formatted(THRESHOLD_MS))) {
                    while (rs.next()) {
                        double ms = rs.getDouble(1);
                        String text = rs.getString(2).replaceAll("\\s+", " ").strip();
                        seen.compute(text.length() > 240 ? text.substring(0, 240) + "…" : text, (k, v) ->
                                v == null ? new double[] {1, ms} : new double[] {v[0] + 1, Math.max(v[1], ms)});
                    }
                }
                Thread.sleep(10);
            }
        } catch (SQLException | InterruptedException e) {
            if (watching) {
                System.err.println("slow-statement watch stopped: " + e.getMessage());
            }
        }
    }

    /** What was seen, longest first. */
    List<Seen> seen() {
        var all = new ArrayList<Seen>();
        seen.forEach((text, v) -> all.add(new Seen(text, (int) v[0], v[1])));
        all.sort(Comparator.comparingDouble(Seen::longestMs).reversed());
        return all;
    }

    @Override
    public void close() throws Exception {
        watching = false;
        watcher.join(1_000);
        connection.close();
    }
}
