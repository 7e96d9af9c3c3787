package io.spillover.jobs;

import io.spillover.placement.Decision;
import io.spillover.placement.EntryVerdict;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
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

    /** Logs a transition and announces it (after commit) to whoever watches the job. */
    @Transactional(propagation = Propagation.MANDATORY)
    void append(Transition t, String jobName) {
        events.publishEvent(new JobTransitioned(t.jobId(), t.team(), jobName, t.to()));
        jdbc.sql("INSERT INTO job_transitions (job_id, team, at, from_status, to_status, reason, message, attempt)"
                        + " VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
                .params(t.jobId(), t.team(), Timestamp.from(t.at()), t.from() == null ? null : t.from().name(),
                        t.to().name(), t.reason() == null ? null : t.reason().name(), t.message(), t.attempt())
                .update();
    }

    /** Logs the evaluation, or counts it as a repeat of the job's previous one when nothing differs. */
    @Transactional(propagation = Propagation.MANDATORY)
    void record(UUID jobId, String team, Decision decision, String trigger, Instant at) {
        String digest = digest(decision);
        int repeated = jdbc.sql("""
                        INSERT INTO evaluation_repeats (evaluation_id, repeats, last_at)
                        SELECT last_evaluation_id, 1, ? FROM jobs
                         WHERE id = ? AND last_evaluation_digest = ? AND last_evaluation_id IS NOT NULL
                        ON CONFLICT (evaluation_id) DO UPDATE
                           SET repeats = evaluation_repeats.repeats + 1, last_at = excluded.last_at""")
                .params(Timestamp.from(at), jobId, digest).update();
        if (repeated > 0) {
            return;
        }
        Integer selected = decision.selected().map(EntryVerdict::index).orElse(null);
        long id = jdbc.sql("INSERT INTO job_evaluations (job_id, team, at, trigger, outcome, selected_index, entries)"
                        + " VALUES (?, ?, ?, ?, ?, ?, ?::jsonb) RETURNING id")
                .params(jobId, team, Timestamp.from(at), trigger, decision.outcome().name(), selected,
                        JSON.writeValueAsString(decision.entries()))
                .query(Long.class).single();
        jdbc.sql("UPDATE jobs SET last_evaluation_id = ?, last_evaluation_digest = ? WHERE id = ?")
                .params(id, digest, jobId).update();
    }

    List<TransitionView> transitions(UUID jobId) {
        return jdbc.sql("SELECT at, from_status, to_status, reason, message, attempt FROM job_transitions"
                        + " WHERE job_id = ? ORDER BY id")
                .param(jobId)
                .query((rs, n) -> new TransitionView(rs.getTimestamp("at").toInstant(),
                        rs.getString("from_status") == null ? null : JobStatus.valueOf(rs.getString("from_status")),
                        JobStatus.valueOf(rs.getString("to_status")),
                        rs.getString("reason") == null ? null : StatusReason.valueOf(rs.getString("reason")),
                        rs.getString("message"), rs.getInt("attempt")))
                .list();
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
