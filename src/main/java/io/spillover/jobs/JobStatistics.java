package io.spillover.jobs;

import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** Figures for the dashboard's charts, read from the jobs and their log. */
@Repository
public class JobStatistics {

    /** Instances in use at one moment. */
    public record Sample(Instant at, int instances) {
    }

    private final JdbcClient jdbc;

    JobStatistics(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** How long jobs of the teams waited before their first placement, for those placed since {@code since}. */
    public List<Long> waitSeconds(Collection<String> teams, Instant since) {
        return jdbc.sql("""
                        SELECT extract(epoch FROM min(t.at) - j.created_at)::bigint
                          FROM jobs j JOIN job_transitions t ON t.job_id = j.id AND t.to_status = 'STARTING'
                         WHERE j.team = ANY(?) GROUP BY j.id, j.created_at HAVING min(t.at) >= ?""")
                .params(teams.toArray(String[]::new), Timestamp.from(since))
                .query(Long.class).list();
    }

    /** Instances the teams' jobs held at each step from {@code from} to {@code to}. */
    public List<Sample> instancesInUse(Collection<String> teams, Instant from, Instant to, Duration step) {
        return jdbc.sql("""
                        SELECT b.at, coalesce(sum(j.selected_count), 0)::int AS instances
                          FROM generate_series(?::timestamptz, ?::timestamptz, ?::interval) AS b(at)
                          LEFT JOIN jobs j ON j.team = ANY(?) AND j.started_at <= b.at
                                          AND (j.ended_at IS NULL OR j.ended_at > b.at)
                         GROUP BY b.at ORDER BY b.at""")
                .params(Timestamp.from(from), Timestamp.from(to), step.toSeconds() + " seconds",
                        teams.toArray(String[]::new))
                .query((rs, n) -> new Sample(rs.getTimestamp("at").toInstant(), rs.getInt("instances")))
                .list();
    }
}
