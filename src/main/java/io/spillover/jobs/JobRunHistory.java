package io.spillover.jobs;

import io.spillover.placement.ExpectedRuns;
import io.spillover.queue.RunHistory;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The jobs' history as fair share reads it ({@link RunHistory}), on the jobs table and its indexes. */
@Repository
class JobRunHistory implements RunHistory {

    private static final String ON_PROVIDER = JobStatus.statusIn(JobStatus.ON_PROVIDER);

    private final JdbcClient jdbc;

    JobRunHistory(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public List<Running> running() {
        return jdbc.sql("SELECT team, profile_name, selected_type, selected_count, max_runtime_seconds FROM jobs WHERE "
                        + ON_PROVIDER + " AND selected_type IS NOT NULL")
                .query((rs, n) -> {
                    Long max = rs.getObject("max_runtime_seconds", Long.class);
                    return new Running(rs.getString("team"), rs.getString("profile_name"), rs.getString("selected_type"),
                            rs.getInt("selected_count"), max == null ? null : Duration.ofSeconds(max));
                }).list();
    }

    @Override
    public List<Ended> ended(Instant now, Instant since, Duration halfLife) {
        return jdbc.sql("""
                        SELECT team, selected_type,
                               sum(selected_count * (power(0.5, greatest(0, extract(epoch FROM (:now - ended_at))) / :h)
                                   - power(0.5, greatest(0, extract(epoch FROM (:now - started_at))) / :h))) AS usage
                          FROM jobs
                         WHERE ended_at > :since AND started_at IS NOT NULL AND selected_type IS NOT NULL
                         GROUP BY team, selected_type""")
                .param("now", Timestamp.from(now)).param("h", (double) halfLife.toSeconds())
                .param("since", Timestamp.from(since))
                .query((rs, n) -> new Ended(rs.getString("team"), rs.getString("selected_type"), rs.getDouble("usage")))
                .list();
    }

    @Override
    public List<Typical> typicalRuns(Instant since, int runs) {
        // one pass over the recent completed runs, numbered within the team and within the team's profile
        return jdbc.sql("""
                        WITH runs AS (
                            SELECT team, profile_name, extract(epoch FROM (ended_at - started_at)) AS seconds,
                                   row_number() OVER (PARTITION BY team ORDER BY ended_at DESC) AS in_team,
                                   row_number() OVER (PARTITION BY team, profile_name ORDER BY ended_at DESC) AS in_profile
                              FROM jobs
                             WHERE status = :completed AND ended_at > :since AND started_at IS NOT NULL)
                        SELECT team, NULL AS profile_name, count(*) AS runs,
                               percentile_disc(0.5) WITHIN GROUP (ORDER BY seconds) AS median
                          FROM runs WHERE in_team <= :runs GROUP BY team
                        UNION ALL
                        SELECT team, profile_name, count(*) AS runs,
                               percentile_disc(0.5) WITHIN GROUP (ORDER BY seconds) AS median
                          FROM runs WHERE profile_name IS NOT NULL AND in_profile <= :runs GROUP BY team, profile_name""")
                .param("since", Timestamp.from(since)).param("runs", runs)
                .param("completed", JobStatus.COMPLETED.name())
                .query((rs, n) -> new Typical(rs.getString("team"), rs.getString("profile_name"),
                        Duration.ofSeconds(Math.max(1, Math.round(rs.getDouble("median")))), rs.getInt("runs")))
                .list();
    }

    @Override
    public List<Completed> latestRuns(Instant since, int runs) {
        return jdbc.sql("""
                        SELECT team, profile_name, seconds, in_team <= :runs AS of_team,
                               profile_name IS NOT NULL AND in_profile <= :runs AS of_profile
                          FROM (SELECT team, profile_name, extract(epoch FROM (ended_at - started_at)) AS seconds,
                                       row_number() OVER (PARTITION BY team ORDER BY ended_at DESC) AS in_team,
                                       row_number() OVER (PARTITION BY team, profile_name ORDER BY ended_at DESC)
                                           AS in_profile
                                  FROM jobs
                                 WHERE status = :completed AND ended_at > :since AND started_at IS NOT NULL) r
                         WHERE in_team <= :runs OR (profile_name IS NOT NULL AND in_profile <= :runs)""")
                .param("since", Timestamp.from(since)).param("runs", runs)
                .param("completed", JobStatus.COMPLETED.name())
                .query((rs, n) -> new Completed(rs.getString("team"), rs.getString("profile_name"),
                        Duration.ofSeconds(Math.max(1, Math.round(rs.getDouble("seconds")))), rs.getBoolean("of_team"),
                        rs.getBoolean("of_profile")))
                .list();
    }

    @Override
    public Map<UUID, ExpectedRuns.Sweep> sweeps(Collection<UUID> sweeps, Instant now) {
        if (sweeps.isEmpty()) {
            return Map.of();
        }
        record Member(UUID sweep, boolean ended, Duration run) {
        }
        List<Member> members = jdbc.sql("""
                        SELECT sweep_id, status = :completed AS ended,
                               extract(epoch FROM (coalesce(ended_at, :now) - started_at)) AS seconds
                          FROM (SELECT sweep_id, status, started_at, ended_at,
                                       row_number() OVER (PARTITION BY sweep_id ORDER BY started_at DESC) AS latest
                                  FROM jobs
                                 WHERE sweep_id = ANY(:sweeps) AND started_at IS NOT NULL
                                   AND status IN (:completed, :running)) m
                         WHERE latest <= :runs""")
                .param("sweeps", sweeps.toArray(UUID[]::new)).param("now", Timestamp.from(now))
                .param("completed", JobStatus.COMPLETED.name()).param("running", JobStatus.RUNNING.name())
                .param("runs", ExpectedRuns.SWEEP_RUNS)
                .query((rs, n) -> new Member(rs.getObject("sweep_id", UUID.class), rs.getBoolean("ended"),
                        Duration.ofMillis(Math.max(0, Math.round(rs.getDouble("seconds") * 1000)))))
                .list();
        var ended = new HashMap<UUID, List<Duration>>();
        var running = new HashMap<UUID, List<Duration>>();
        for (Member member : members) {
            (member.ended() ? ended : running).computeIfAbsent(member.sweep(), s -> new ArrayList<>()).add(member.run());
        }
        var known = new HashMap<UUID, ExpectedRuns.Sweep>();
        for (UUID sweep : sweeps) {
            if (ended.containsKey(sweep) || running.containsKey(sweep)) {
                known.put(sweep, new ExpectedRuns.Sweep(ended.getOrDefault(sweep, List.of()),
                        running.getOrDefault(sweep, List.of())));
            }
        }
        return known;
    }
}
