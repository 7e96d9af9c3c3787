package io.spillover.webhooks;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Transactional;

/**
 * The deliveries of events to hooks, as the dispatcher works them: made from the outbox, claimed with a lease,
 * and settled with each attempt. Every statement answers in the database's time, so replicas' clocks need not
 * agree.
 */
@Repository
class Deliveries {

    private final JdbcClient jdbc;

    Deliveries(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** A claimed delivery and what it takes to send it. */
    record Claimed(long id, int claim, int attempts, String team, long webhookId, String webhook, String url,
                   byte[] secret, String secretKeyId, UUID eventId, String body) {
    }

    /**
     * Makes the deliveries of events not yet expanded, one per hook that still exists, in one transaction;
     * instances expand different events at once (skip locked). Answers how many events it expanded.
     */
    @Transactional
    int expand(int batch) {
        return jdbc.sql("""
                        WITH taken AS (
                                 SELECT id FROM webhook_events WHERE NOT expanded
                                  ORDER BY created_at LIMIT :batch FOR UPDATE SKIP LOCKED),
                             marked AS (
                                 UPDATE webhook_events e SET expanded = true FROM taken t WHERE e.id = t.id
                                 RETURNING e.id, e.team, e.job_id, e.transition_id, e.ordinal, e.webhook_ids),
                             made AS (
                                 INSERT INTO webhook_deliveries (team, webhook_id, event_id, job_id, transition_id,
                                                                 ordinal)
                                 SELECT m.team, w.id, m.id, m.job_id, m.transition_id, m.ordinal
                                   FROM marked m JOIN webhooks w ON w.id = ANY (m.webhook_ids))
                        SELECT count(*) FROM marked""")
                .param("batch", batch)
                .query(Integer.class).single();
    }

    /**
     * Leases up to {@code slots} deliveries that are due, each the first of its job's still pending for its hook
     * (and with no earlier event of the job still to be expanded), at most {@code perHook} of a hook in flight
     * (counting those leased already), to this instance until {@code lease} from now.
     */
    @Transactional
    List<Claimed> claim(int slots, int perHook, Duration lease, String instance) {
        List<Long> ids = jdbc.sql("""
                        WITH candidates AS (
                                 SELECT d.id, d.webhook_id,
                                        row_number() OVER (PARTITION BY d.webhook_id ORDER BY d.next_attempt_at, d.id)
                                            AS rank
                                   FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id AND w.enabled
                                  WHERE d.state = 'PENDING' AND d.next_attempt_at <= now()
                                    AND (d.leased_until IS NULL OR d.leased_until <= now())
                                    AND NOT EXISTS (
                                        SELECT 1 FROM webhook_deliveries p
                                         WHERE p.webhook_id = d.webhook_id AND p.job_id = d.job_id
                                           AND p.state = 'PENDING'
                                           AND (p.transition_id, p.ordinal, p.id) < (d.transition_id, d.ordinal, d.id))
                                    AND NOT EXISTS (
                                        SELECT 1 FROM webhook_events e
                                         WHERE e.job_id = d.job_id AND NOT e.expanded
                                           AND (e.transition_id, e.ordinal) < (d.transition_id, d.ordinal))
                                  ORDER BY d.next_attempt_at, d.id
                                  LIMIT 1000),
                             busy AS (
                                 SELECT webhook_id, count(*) AS n FROM webhook_deliveries
                                  WHERE state = 'PENDING' AND leased_until > now() GROUP BY webhook_id),
                             picked AS (
                                 SELECT d.id FROM webhook_deliveries d
                                   JOIN candidates c ON c.id = d.id
                                   LEFT JOIN busy b ON b.webhook_id = c.webhook_id
                                  WHERE c.rank + coalesce(b.n, 0) <= :perHook
                                    AND d.state = 'PENDING' AND (d.leased_until IS NULL OR d.leased_until <= now())
                                  ORDER BY d.next_attempt_at, d.id
                                  LIMIT :slots
                                  FOR UPDATE OF d SKIP LOCKED)
                        UPDATE webhook_deliveries d
                           SET leased_until = now() + CAST(:lease AS interval), leased_by = :instance,
                               claim = d.claim + 1
                          FROM picked p WHERE d.id = p.id
                        RETURNING d.id""")
                .param("perHook", perHook)
                .param("slots", slots)
                .param("lease", lease.toMillis() + " milliseconds")
                .param("instance", instance)
                .query(Long.class).list();
        if (ids.isEmpty()) {
            return List.of();
        }
        return jdbc.sql("""
                        SELECT d.id, d.claim, d.attempts, d.team, w.id AS webhook_id, w.name, w.url, w.secret, w.secret_key_id,
                               e.id AS event_id, e.body
                          FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
                          JOIN webhook_events e ON e.id = d.event_id
                         WHERE d.id = ANY (:ids) ORDER BY d.id""")
                .param("ids", ids.toArray(Long[]::new))
                .query((rs, n) -> new Claimed(rs.getLong("id"), rs.getInt("claim"), rs.getInt("attempts"),
                        rs.getString("team"),
                        rs.getLong("webhook_id"), rs.getString("name"), rs.getString("url"), rs.getBytes("secret"),
                        rs.getString("secret_key_id"), rs.getObject("event_id", UUID.class), rs.getString("body")))
                .list();
    }

    /** How an attempt went. {@code gone}: the receiver answered 410, and the hook is to be disabled. */
    record Outcome(boolean delivered, boolean gone, Integer status, int latencyMillis, String error) {
    }

    /**
     * Records an attempt and settles its delivery, if this instance still holds the lease it sent under: a 2xx
     * delivers it; a 410 fails it and disables the hook; anything else has it tried again after {@code delay},
     * until {@code giveUpAfter} from when it was made (the last try at that moment), when it fails.
     */
    @Transactional
    void settle(Claimed claimed, Outcome outcome, Duration delay, Duration giveUpAfter, String instance) {
        // (a delivery whose hook was deleted meanwhile went with it: its attempt has nothing to belong to)
        jdbc.sql("""
                        INSERT INTO webhook_attempts (team, delivery_id, at, status, latency_ms, error, instance)
                        SELECT ?, id, now(), ?, ?, ?, ? FROM webhook_deliveries WHERE id = ?""")
                .params(claimed.team(), outcome.status(), outcome.latencyMillis(), outcome.error(), instance,
                        claimed.id())
                .update();
        jdbc.sql("""
                        UPDATE webhook_deliveries
                           SET attempts = attempts + 1, last_status = :status, last_error = :error, leased_until = NULL,
                               state = CASE WHEN :delivered THEN 'DELIVERED'
                                            WHEN :gone OR now() >= created_at + CAST(:giveUp AS interval) THEN 'FAILED'
                                            ELSE 'PENDING' END,
                               done_at = CASE WHEN :delivered OR :gone
                                                   OR now() >= created_at + CAST(:giveUp AS interval) THEN now() END,
                               next_attempt_at = least(now() + CAST(:delay AS interval),
                                                       created_at + CAST(:giveUp AS interval))
                         WHERE id = :id AND claim = :claim AND state = 'PENDING'""")
                .param("status", outcome.status())
                .param("error", outcome.error())
                .param("delivered", outcome.delivered())
                .param("gone", outcome.gone())
                .param("giveUp", giveUpAfter.toMillis() + " milliseconds")
                .param("delay", delay.toMillis() + " milliseconds")
                .param("id", claimed.id())
                .param("claim", claimed.claim())
                .update();
        if (outcome.gone()) {
            jdbc.sql("UPDATE webhooks SET enabled = false, disabled_reason = ? WHERE id = ?")
                    .params("the receiver answered 410 Gone at " + Instant.now() + "; save the hook again to enable it",
                            claimed.webhookId())
                    .update();
        }
    }

    /** Gives a claim back untried (the instance is stopping, or the claim waited too long to be sent safely). */
    void release(Claimed claimed) {
        jdbc.sql("UPDATE webhook_deliveries SET leased_until = NULL WHERE id = ? AND claim = ?")
                .params(claimed.id(), claimed.claim()).update();
    }

    /** How long until a delivery becomes due or a lease runs out; empty when nothing waits. */
    Optional<Duration> untilNext() {
        Double seconds = jdbc.sql("""
                        SELECT extract(epoch FROM least(
                                   (SELECT min(next_attempt_at) FROM webhook_deliveries
                                     WHERE state = 'PENDING' AND next_attempt_at > now()),
                                   (SELECT min(leased_until) FROM webhook_deliveries
                                     WHERE state = 'PENDING' AND leased_until > now())) - now())""")
                .query(Double.class).optional().orElse(null);
        return Optional.ofNullable(seconds).map(s -> Duration.ofMillis(Math.max(0, (long) (s * 1000))));
    }

    // --- for the API and the console ---

    /** A hook's deliveries, newest first, each with its attempts. */
    List<DeliveryView> ofHook(long webhookId, String state, int page, int size) {
        List<DeliveryView> deliveries = jdbc.sql("""
                        SELECT d.id, d.event_id, e.type, e.job_name, d.state, d.created_at, d.next_attempt_at,
                               d.last_status, d.last_error, d.done_at, d.redelivery_of
                          FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
                         WHERE d.webhook_id = :hook AND (CAST(:state AS text) IS NULL OR d.state = :state)
                         ORDER BY d.id DESC LIMIT :size OFFSET :offset""")
                .param("hook", webhookId)
                .param("state", state)
                .param("size", size)
                .param("offset", (long) page * size)
                .query(Deliveries::delivery).list();
        if (deliveries.isEmpty()) {
            return deliveries;
        }
        Map<Long, List<DeliveryView.Attempt>> attempts = new HashMap<>();
        jdbc.sql("SELECT delivery_id, at, status, latency_ms, error FROM webhook_attempts WHERE delivery_id = ANY (?)"
                        + " ORDER BY id")
                .param(deliveries.stream().map(DeliveryView::id).toArray(Long[]::new))
                .query((rs, n) -> attempts.computeIfAbsent(rs.getLong("delivery_id"), id -> new ArrayList<>())
                        .add(new DeliveryView.Attempt(rs.getTimestamp("at").toInstant(),
                                (Integer) rs.getObject("status"), rs.getInt("latency_ms"), rs.getString("error"))))
                .list();
        return deliveries.stream().map(d -> d.withAttempts(attempts.getOrDefault(d.id(), List.of()))).toList();
    }

    Optional<DeliveryView> find(long webhookId, long id) {
        return jdbc.sql("""
                        SELECT d.id, d.event_id, e.type, e.job_name, d.state, d.created_at, d.next_attempt_at,
                               d.last_status, d.last_error, d.done_at, d.redelivery_of
                          FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
                         WHERE d.webhook_id = ? AND d.id = ?""")
                .params(webhookId, id)
                .query(Deliveries::delivery).optional();
    }

    /** A new delivery of the same event (the same {@code webhook-id}) to the same hook, due now. */
    long redeliver(String team, long webhookId, long id) {
        return jdbc.sql("""
                        INSERT INTO webhook_deliveries (team, webhook_id, event_id, job_id, transition_id, ordinal,
                                                        redelivery_of)
                        SELECT team, webhook_id, event_id, job_id, transition_id, ordinal, id
                          FROM webhook_deliveries WHERE team = ? AND webhook_id = ? AND id = ?
                        RETURNING id""")
                .params(team, webhookId, id)
                .query(Long.class).single();
    }

    /** The delivery of a ping just written to the outbox, made at once so that its id can be answered. */
    long deliverPing(String team, long webhookId, UUID eventId) {
        jdbc.sql("UPDATE webhook_events SET expanded = true WHERE id = ?").param(eventId).update();
        return jdbc.sql("INSERT INTO webhook_deliveries (team, webhook_id, event_id) VALUES (?, ?, ?) RETURNING id")
                .params(team, webhookId, eventId)
                .query(Long.class).single();
    }

    private static DeliveryView delivery(ResultSet rs, int n) throws SQLException {
        return new DeliveryView(rs.getLong("id"), rs.getObject("event_id", UUID.class).toString(),
                rs.getString("type"), rs.getString("job_name"), rs.getString("state"), instant(rs, "created_at"),
                "PENDING".equals(rs.getString("state")) ? instant(rs, "next_attempt_at") : null,
                (Integer) rs.getObject("last_status"), rs.getString("last_error"), instant(rs, "done_at"),
                (Long) rs.getObject("redelivery_of"), List.of());
    }

    private static Instant instant(ResultSet rs, String column) throws SQLException {
        Timestamp at = rs.getTimestamp(column);
        return at == null ? null : at.toInstant();
    }
}
