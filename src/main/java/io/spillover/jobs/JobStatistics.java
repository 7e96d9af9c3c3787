package io.spillover.jobs;

import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
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

    /**
     * Instances each team's jobs held at each step from {@code from} to {@code to}, for the teams that held any
     * in that time, by team name.
     */
    public SortedMap<String, List<Sample>> instancesInUse(Collection<String> teams, Instant from, Instant to,
                                                          Duration step) {
        var byTeam = new TreeMap<String, List<Sample>>();
        jdbc.sql("""
                        WITH steps AS (SELECT generate_series(?::timestamptz, ?::timestamptz, ?::interval) AS at),
                             held AS (SELECT j.team, s.at, j.selected_count
                                        FROM steps s JOIN jobs j ON j.team = ANY(?) AND j.started_at <= s.at
                                                                AND (j.ended_at IS NULL OR j.ended_at > s.at))
                        SELECT t.team, s.at, coalesce(sum(h.selected_count), 0)::int AS instances
                          FROM (SELECT DISTINCT team FROM held) t CROSS JOIN steps s
                          LEFT JOIN held h ON h.team = t.team AND h.at = s.at
                         GROUP BY t.team, s.at ORDER BY t.team, s.at""")
                .params(Timestamp.from(from), Timestamp.from(to), step.toSeconds() + " seconds",
                        teams.toArray(String[]::new))
                .query(rs -> {
                    byTeam.computeIfAbsent(rs.getString("team"), team -> new ArrayList<>())
                            .add(new Sample(rs.getTimestamp("at").toInstant(), rs.getInt("instances")));
                });
        return byTeam;
    }
}
