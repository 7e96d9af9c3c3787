package io.spillover.jobs;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.stream.Collectors;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Transactional;

/**
 * The pending jobs' estimated starts as last worked out ({@link EstimatedStart}), one row per job: written by the
 * instance that estimates, read by every instance, so all serve the same figures. A write announces the teams whose
 * estimates moved on {@value #CHANNEL}, and every instance's job streams and console pages redraw from the table.
 */
@Repository
public class JobEstimates {

    /** The PostgreSQL channel an estimation that moved something notifies; its payload lists the teams. */
    static final String CHANNEL = "spillover_estimates";

    /** One job's estimate, with its team (the table's tenant column). */
    public record Estimated(UUID job, String team, EstimatedStart start) {
    }

    private final JdbcClient jdbc;

    JobEstimates(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * What one estimation changes.
     *
     * @param moved       the estimates to write, each replacing the job's earlier one
     * @param beyond      jobs beyond the forecast that get {@code beyondBasis} where they have no estimate yet; null
     *                    for every pending job without one that was submitted by {@code at} (one submitted since was
     *                    not in the estimation's reading, and its own change brings it an estimate)
     * @param beyondBasis why they have no figures
     * @param left        jobs whose estimate goes if they no longer wait; null for every job's
     * @param at          when the estimation read the queue
     */
    public record Estimation(Collection<Estimated> moved, Collection<UUID> beyond, String beyondBasis,
                             Collection<UUID> left, Instant at) {
    }

    /**
     * Writes an estimation in one transaction that, if it changed anything, notifies the teams concerned. A job that
     * no longer waits gets no estimate, whatever the estimation thought.
     *
     * @return how many rows changed
     */
    @Transactional
    public int store(Estimation estimation) {
        Set<String> teams = new TreeSet<>();
        int changed = write(estimation.moved(), teams);
        changed += beyond(estimation, teams);
        List<String> gone = estimation.left() == null
                ? jdbc.sql("""
                        DELETE FROM job_estimates e
                         WHERE NOT EXISTS (SELECT 1 FROM jobs j WHERE j.id = e.job_id AND j.status = 'PENDING')
                        RETURNING e.team""").query(String.class).list()
                : estimation.left().isEmpty() ? List.of() : jdbc.sql("""
                        DELETE FROM job_estimates e
                         WHERE e.job_id = ANY(:ids)
                           AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.id = e.job_id AND j.status = 'PENDING')
                        RETURNING e.team""").param("ids", estimation.left().toArray(UUID[]::new))
                        .query(String.class).list();
        changed += gone.size();
        teams.addAll(gone);
        if (changed > 0) {
            String payload = String.join(",", teams);
            jdbc.sql("SELECT pg_notify(?, ?)").params(CHANNEL, payload.length() > JobStreams.MAX_PAYLOAD
                    ? JobStreams.EVERY_JOB : payload).query().singleValue();
        }
        return changed;
    }

    private int write(Collection<Estimated> moved, Set<String> teams) {
        if (moved.isEmpty()) {
            return 0;
        }
        int n = moved.size();
        var ids = new UUID[n];
        var teamNames = new String[n];
        var p10 = new Long[n];
        var p50 = new Long[n];
        var p90 = new Long[n];
        var entries = new Integer[n];
        var bases = new String[n];
        var past = new Boolean[n];
        var at = new Long[n];
        int i = 0;
        for (Estimated e : moved) {
            ids[i] = e.job();
            teamNames[i] = e.team();
            p10[i] = millis(e.start().p10());
            p50[i] = millis(e.start().p50());
            p90[i] = millis(e.start().p90());
            entries[i] = e.start().entry();
            bases[i] = e.start().basis();
            past[i] = e.start().pastDeadline();
            at[i] = millis(e.start().estimatedAt());
            teams.add(e.team());
            i++;
        }
        // one statement over arrays: an estimation may write thousands of rows at once. A job that left the queue
        // since the estimation read it is skipped: it needs no estimate.
        return jdbc.sql("""
                        INSERT INTO job_estimates (job_id, team, p10, p50, p90, entry, basis, past_deadline, estimated_at)
                        SELECT r.job_id, r.team, to_timestamp(r.p10 / 1000.0), to_timestamp(r.p50 / 1000.0),
                               to_timestamp(r.p90 / 1000.0), r.entry, r.basis, r.past, to_timestamp(r.at / 1000.0)
                          FROM unnest(:ids, :teams, :p10, :p50, :p90, :entries, :bases, :past, :at)
                               AS r (job_id, team, p10, p50, p90, entry, basis, past, at)
                          JOIN jobs j ON j.id = r.job_id AND j.status = 'PENDING'
                        ON CONFLICT (job_id) DO UPDATE SET p10 = excluded.p10, p50 = excluded.p50, p90 = excluded.p90,
                               entry = excluded.entry, basis = excluded.basis, past_deadline = excluded.past_deadline,
                               estimated_at = excluded.estimated_at""")
                .param("ids", ids).param("teams", teamNames).param("p10", p10).param("p50", p50)
                .param("p90", p90).param("entries", entries).param("bases", bases).param("past", past)
                .param("at", at).update();
    }

    /**
     * The basis of the jobs beyond the forecast that have no estimate yet; a job estimated before keeps its own. Of every
     * pending job, only those the estimation could have read: a job submitted while it forecast may be first in line.
     */
    private int beyond(Estimation estimation, Set<String> teams) {
        if (estimation.beyond() != null && estimation.beyond().isEmpty()) {
            return 0;
        }
        String which = estimation.beyond() == null ? "j.created_at <= :at" : "j.id = ANY(:ids)";
        var statement = jdbc.sql("""
                        INSERT INTO job_estimates (job_id, team, basis, past_deadline, estimated_at)
                        SELECT j.id, j.team, :basis, false, :at FROM jobs j
                         WHERE j.status = 'PENDING' AND (%s)
                           AND NOT EXISTS (SELECT 1 FROM job_estimates e WHERE e.job_id = j.id)
                        ON CONFLICT (job_id) DO NOTHING
                        RETURNING team""".formatted(which))
                .param("basis", estimation.beyondBasis())
                .param("at", Timestamp.from(estimation.at().truncatedTo(ChronoUnit.MILLIS))); // as the others are kept
        if (estimation.beyond() != null) {
            statement = statement.param("ids", estimation.beyond().toArray(UUID[]::new));
        }
        List<String> written = statement.query(String.class).list();
        teams.addAll(written);
        return written.size();
    }

    /**
     * A job's first estimate as the forecast made it, before calibration, and what has happened since.
     *
     * @param p10     a wait in seconds from {@code made}
     * @param started when it started, null while it waits
     */
    public record FirstEstimate(Instant made, long p10, long p50, long p90, Instant started) {
    }

    /**
     * Keeps the first estimate of each of these jobs that has none yet (and still waits).
     *
     * @param waits p10, p50 and p90 in seconds from {@code made}, by job
     */
    @Transactional
    public void recordFirst(Instant made, Map<UUID, long[]> waits) {
        if (waits.isEmpty()) {
            return;
        }
        var ids = waits.keySet().toArray(UUID[]::new);
        var p10 = new Long[ids.length];
        var p50 = new Long[ids.length];
        var p90 = new Long[ids.length];
        for (int i = 0; i < ids.length; i++) {
            long[] w = waits.get(ids[i]);
            p10[i] = w[0];
            p50[i] = w[1];
            p90[i] = w[2];
        }
        jdbc.sql("""
                        INSERT INTO first_estimates (job_id, made_at, p10_s, p50_s, p90_s)
                        SELECT r.job_id, to_timestamp(:made / 1000.0), r.p10, r.p50, r.p90
                          FROM unnest(:ids, :p10, :p50, :p90) AS r (job_id, p10, p50, p90)
                          JOIN jobs j ON j.id = r.job_id AND j.status = 'PENDING'
                        ON CONFLICT (job_id) DO NOTHING""")
                .param("made", made.toEpochMilli()).param("ids", ids).param("p10", p10).param("p50", p50)
                .param("p90", p90).update();
    }

    /**
     * The latest first estimates of jobs that have started or still wait, newest first (a job that left the queue
     * without starting says nothing of when it would have).
     */
    @Transactional(readOnly = true)
    public List<FirstEstimate> latestFirst(int limit) {
        return jdbc.sql("""
                        SELECT f.made_at, f.p10_s, f.p50_s, f.p90_s, j.started_at
                          FROM first_estimates f JOIN jobs j ON j.id = f.job_id
                         WHERE j.started_at IS NOT NULL OR j.status = 'PENDING'
                         ORDER BY f.made_at DESC, f.job_id
                         LIMIT :limit""")
                .param("limit", limit)
                .query((rs, n) -> new FirstEstimate(rs.getTimestamp("made_at").toInstant(), rs.getLong("p10_s"),
                        rs.getLong("p50_s"), rs.getLong("p90_s"), instant(rs.getTimestamp("started_at"))))
                .list();
    }

    /** The estimates of these jobs of the team that have one. */
    @Transactional(readOnly = true)
    public Map<UUID, EstimatedStart> of(String team, Collection<UUID> jobs) {
        if (jobs.isEmpty()) {
            return Map.of();
        }
        var found = new HashMap<UUID, EstimatedStart>();
        jdbc.sql("SELECT * FROM job_estimates WHERE team = :team AND job_id = ANY(:ids)")
                .param("team", team).param("ids", jobs.toArray(UUID[]::new))
                .query((rs, n) -> found.put(rs.getObject("job_id", UUID.class), row(rs))).list();
        return found;
    }

    /** The estimates of the jobs of several teams, for pages that list the teams' queue. */
    Map<UUID, EstimatedStart> of(Collection<Job> jobs) {
        var found = new HashMap<UUID, EstimatedStart>();
        jobs.stream().filter(j -> j.status() == JobStatus.PENDING)
                .collect(Collectors.groupingBy(Job::team, Collectors.mapping(Job::id, Collectors.toList())))
                .forEach((team, ids) -> found.putAll(of(team, ids)));
        return found;
    }

    Optional<EstimatedStart> of(String team, UUID job) {
        return Optional.ofNullable(of(team, List.of(job)).get(job));
    }

    private static EstimatedStart row(ResultSet rs) throws SQLException {
        return new EstimatedStart(instant(rs.getTimestamp("p10")), instant(rs.getTimestamp("p50")),
                instant(rs.getTimestamp("p90")), rs.getObject("entry", Integer.class), rs.getString("basis"),
                rs.getBoolean("past_deadline"), instant(rs.getTimestamp("estimated_at")));
    }

    private static Instant instant(Timestamp at) {
        return at == null ? null : at.toInstant();
    }

    private static Long millis(Instant at) {
        return at == null ? null : at.toEpochMilli();
    }
}
