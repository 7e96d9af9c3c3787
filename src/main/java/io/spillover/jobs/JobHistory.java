package io.spillover.jobs;

import io.spillover.placement.Decision;
import io.spillover.placement.EntryVerdict;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * The append-only log of each job: its transitions and placement evaluations. An evaluation whose outcome
 * and reasons equal the job's previous one is only counted, so a long queue does not flood the log.
 */
@Repository
class JobHistory {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final TypeReference<List<EntryVerdict>> VERDICTS = new TypeReference<>() { };

    private final JdbcClient jdbc;
    private final ApplicationEventPublisher events;

    JobHistory(JdbcClient jdbc, ApplicationEventPublisher events) {
        this.jdbc = jdbc;
        this.events = events;
    }

    /**
     * Logs a transition and announces it, in the transaction: to listeners that write with it (the webhooks'
     * outbox), to those that react after commit (pages watching the job), and, with {@code NOTIFY}, to every
     * instance's streams of the job's events (PostgreSQL delivers it only if the transaction commits).
     */
    @Transactional(propagation = Propagation.MANDATORY)
    void append(Transition t, Job job) {
        // A submission is not announced: a stream opened after it reads it from the log, and NOTIFY serializes the
        // commits of the transactions that send it, which concurrent submissions would then wait for.
        String announce = t.from() == null ? "" : ", pg_notify('" + JobStreams.CHANNEL + "', CAST(job_id AS text))";
        long id = jdbc.sql("WITH logged AS (INSERT INTO job_transitions (job_id, team, at, from_status, to_status,"
                        + " reason, message, attempt) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id, job_id)"
                        + " SELECT id" + announce + " FROM logged")
                .params(t.jobId(), t.team(), Timestamp.from(t.at()), t.from() == null ? null : t.from().name(),
                        t.to().name(), t.reason() == null ? null : t.reason().name(), t.message(), t.attempt())
                .query((rs, n) -> rs.getLong("id")).single();
        events.publishEvent(new JobTransitioned(id, TransitionView.of(t), JobView.of(job, null)));
    }

    /** Logs the evaluation, or counts it as a repeat of the job's previous one when nothing differs. */
    @Transactional(propagation = Propagation.MANDATORY)
    void record(UUID jobId, String team, Decision decision, String trigger, Instant at) {
        recordAll(List.of(new JobLifecycle.Evaluated(jobId, team, decision, trigger, false)), at);
    }

    /**
     * Logs a cycle's evaluations. A sweep re-evaluates every pending job and most come out as before, so the
     * repeats are counted in one statement for all of them, and only the evaluations that differ are written. A job's
     * first evaluation repeats nothing: a cycle of new submissions alone writes in one statement.
     */
    @Transactional(propagation = Propagation.MANDATORY)
    void recordAll(List<JobLifecycle.Evaluated> evaluated, Instant at) {
        if (evaluated.isEmpty()) {
            return;
        }
        var digests = new LinkedHashMap<UUID, String>();
        evaluated.forEach(e -> digests.put(e.jobId(), digest(e.decision())));
        Set<UUID> repeated = repeats(evaluated, digests, at);
        var fresh = new LinkedHashMap<UUID, JobLifecycle.Evaluated>();
        evaluated.stream().filter(e -> !repeated.contains(e.jobId())).forEach(e -> fresh.put(e.jobId(), e));
        if (fresh.isEmpty()) {
            return;
        }
        JobStreams.announce(jdbc, fresh.keySet());
        // the new evaluations and each job's pointer to its latest (V16: a narrow row, not the job's), in one statement
        // however many there are
        jdbc.sql("""
                        WITH fresh (job_id, team, trigger, outcome, selected_index, entries, digest) AS (
                                 SELECT * FROM unnest(CAST(:ids AS uuid[]), CAST(:teams AS text[]),
                                                      CAST(:triggers AS text[]), CAST(:outcomes AS text[]),
                                                      CAST(:selected AS int[]), CAST(:entries AS text[]),
                                                      CAST(:digests AS text[]))),
                             inserted AS (
                                 INSERT INTO job_evaluations (job_id, team, at, trigger, outcome, selected_index, entries)
                                 SELECT job_id, team, :at, trigger, outcome, selected_index, CAST(entries AS jsonb)
                                   FROM fresh
                                 RETURNING id, job_id)
                        UPDATE latest_evaluations l SET evaluation_id = i.id, digest = f.digest
                          FROM inserted i JOIN fresh f ON f.job_id = i.job_id
                         WHERE l.job_id = i.job_id""")
                .param("ids", fresh.keySet().toArray(UUID[]::new))
                .param("teams", fresh.values().stream().map(JobLifecycle.Evaluated::team).toArray(String[]::new))
                .param("triggers", fresh.values().stream().map(JobLifecycle.Evaluated::trigger).toArray(String[]::new))
                .param("outcomes", fresh.values().stream().map(e -> e.decision().outcome().name())
                        .toArray(String[]::new))
                .param("selected", fresh.values().stream()
                        .map(e -> e.decision().selected().map(EntryVerdict::index).orElse(null)).toArray(Integer[]::new))
                .param("entries", fresh.values().stream().map(e -> JSON.writeValueAsString(e.decision().entries()))
                        .toArray(String[]::new))
                .param("digests", fresh.keySet().stream().map(digests::get).toArray(String[]::new))
                .param("at", Timestamp.from(at))
                .update();
    }

    /** The evaluated jobs whose evaluation repeats their previous one, each counted as one more repeat of it. */
    private Set<UUID> repeats(List<JobLifecycle.Evaluated> evaluated, Map<UUID, String> digests, Instant at) {
        var seen = new LinkedHashMap<UUID, String>();
        evaluated.stream().filter(e -> !e.firstLook()).forEach(e -> seen.put(e.jobId(), digests.get(e.jobId())));
        if (seen.isEmpty()) {
            return Set.of();
        }
        return new HashSet<>(jdbc.sql("""
                        WITH evaluated (id, digest) AS (
                                 SELECT * FROM unnest(CAST(:ids AS uuid[]), CAST(:digests AS text[]))),
                             unchanged AS (
                                 SELECT l.job_id AS id, l.evaluation_id FROM latest_evaluations l
                                   JOIN evaluated e ON e.id = l.job_id
                                  WHERE l.digest = e.digest AND l.evaluation_id IS NOT NULL),
                             counted AS (
                                 INSERT INTO evaluation_repeats (evaluation_id, repeats, last_at)
                                 SELECT evaluation_id, 1, :at FROM unchanged
                                 ON CONFLICT (evaluation_id) DO UPDATE
                                    SET repeats = evaluation_repeats.repeats + 1, last_at = excluded.last_at)
                        SELECT id FROM unchanged""")
                .param("ids", seen.keySet().toArray(UUID[]::new))
                .param("digests", seen.values().toArray(String[]::new))
                .param("at", Timestamp.from(at))
                .query(UUID.class).list());
    }

    /** The transitions of many jobs, each job's in order, in one query. */
    Map<UUID, List<TransitionView>> transitions(Collection<UUID> jobIds) {
        Map<UUID, List<TransitionView>> byJob = new HashMap<>();
        jdbc.sql("SELECT job_id, at, from_status, to_status, reason, message, attempt FROM job_transitions"
                        + " WHERE job_id = ANY(:ids) ORDER BY id")
                .param("ids", jobIds.toArray(UUID[]::new))
                .query((rs, n) -> byJob.computeIfAbsent(rs.getObject("job_id", UUID.class), id -> new ArrayList<>())
                        .add(transition(rs)))
                .list();
        return byJob;
    }

    /** The job's transitions logged after {@code afterId}, in order, with their ids. */
    List<JobStreams.Logged> transitionsAfter(UUID jobId, long afterId) {
        return jdbc.sql("SELECT id, at, from_status, to_status, reason, message, attempt FROM job_transitions"
                        + " WHERE job_id = ? AND id > ? ORDER BY id")
                .params(jobId, afterId)
                .query((rs, n) -> new JobStreams.Logged(rs.getLong("id"), transition(rs)))
                .list();
    }

    List<TransitionView> transitions(UUID jobId) {
        return jdbc.sql("SELECT at, from_status, to_status, reason, message, attempt FROM job_transitions"
                        + " WHERE job_id = ? ORDER BY id")
                .param(jobId)
                .query((rs, n) -> transition(rs))
                .list();
    }

    private static TransitionView transition(java.sql.ResultSet rs) throws java.sql.SQLException {
        return new TransitionView(rs.getTimestamp("at").toInstant(),
                rs.getString("from_status") == null ? null : JobStatus.valueOf(rs.getString("from_status")),
                JobStatus.valueOf(rs.getString("to_status")),
                rs.getString("reason") == null ? null : StatusReason.valueOf(rs.getString("reason")),
                rs.getString("message"), rs.getInt("attempt"));
    }

    /** The job's evaluations, newest first. */
    List<EvaluationView> evaluations(UUID jobId, int limit) {
        return jdbc.sql("""
                        SELECT e.at, e.trigger, e.outcome, e.selected_index, e.entries::text AS entries,
                               coalesce(r.repeats, 0) AS repeats, r.last_at
                          FROM job_evaluations e LEFT JOIN evaluation_repeats r ON r.evaluation_id = e.id
                         WHERE e.job_id = ? ORDER BY e.id DESC LIMIT ?""")
                .params(jobId, limit)
                .query((rs, n) -> new EvaluationView(rs.getTimestamp("at").toInstant(), rs.getString("trigger"),
                        Decision.Outcome.valueOf(rs.getString("outcome")), (Integer) rs.getObject("selected_index"),
                        JSON.readValue(rs.getString("entries"), VERDICTS), rs.getInt("repeats"),
                        rs.getTimestamp("last_at") == null ? null : rs.getTimestamp("last_at").toInstant()))
                .list();
    }

    /** Equal for evaluations that a user could not tell apart: same outcome, same verdict per entry. */
    static String digest(Decision decision) {
        var text = new StringBuilder(decision.outcome().name());
        for (EntryVerdict entry : decision.entries()) {
            text.append('|').append(entry.fits()).append(':').append(entry.reason());
        }
        try {
            byte[] hash = java.security.MessageDigest.getInstance("SHA-256")
                    .digest(text.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
            return java.util.HexFormat.of().formatHex(hash);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
