package io.spillover.webhooks;

import io.spillover.jobs.JobTransitioned;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.event.EventListener;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * The transactional outbox: a job's change that a hook of its team subscribes to is written here as an event,
 * in the transaction that makes the change. It commits with the change or not at all, so an event is never lost
 * with an instance that dies after the commit, nor sent for a change that rolled back. One statement per change,
 * which writes nothing when no hook wants it; the hooks it matched then are kept with it, and the dispatcher
 * makes their deliveries outside the change's transaction.
 */
@Component
class Outbox {

    private final JdbcClient jdbc;
    private final CloudEvents cloudEvents;
    private final ApplicationEventPublisher events;

    Outbox(JdbcClient jdbc, CloudEvents cloudEvents, ApplicationEventPublisher events) {
        this.jdbc = jdbc;
        this.cloudEvents = cloudEvents;
        this.events = events;
    }

    /** Written events, for the dispatcher to be woken once they commit. */
    record Written() {
    }

    /** In the transaction of the change (a plain listener runs in the publisher's transaction). */
    @EventListener
    void on(JobTransitioned change) {
        List<EventType> types = EventType.of(change);
        if (types.isEmpty()) {
            return;
        }
        var ids = new ArrayList<UUID>();
        var bodies = new ArrayList<String>();
        for (EventType type : types) {
            UUID id = UUID.randomUUID();
            ids.add(id);
            bodies.add(cloudEvents.job(id, type, change.job(), change.transition().at()));
        }
        int written = jdbc.sql("""
                        INSERT INTO webhook_events (id, team, job_id, job_name, transition_id, ordinal, type, body,
                                                    webhook_ids)
                        SELECT * FROM (
                            SELECT e.id, :team, CAST(:job AS uuid), :name, :transition, CAST(e.ordinal AS smallint),
                                   e.type, e.body,
                                   ARRAY(SELECT w.id FROM webhooks w
                                          WHERE w.team = :team AND w.enabled AND e.type = ANY (w.events)
                                            AND :name LIKE w.job_name_pattern ESCAPE '\\' ORDER BY w.id) AS hooks
                              FROM unnest(CAST(:ids AS uuid[]), CAST(:types AS text[]), CAST(:bodies AS text[]))
                                   WITH ORDINALITY AS e(id, type, body, ordinal)) matched
                         WHERE cardinality(matched.hooks) > 0""")
                .param("team", change.team())
                .param("job", change.jobId())
                .param("name", change.jobName())
                .param("transition", change.transitionId())
                .param("ids", ids.toArray(UUID[]::new))
                .param("types", types.stream().map(EventType::subscription).toArray(String[]::new))
                .param("bodies", bodies.toArray(String[]::new))
                .update();
        if (written > 0) {
            events.publishEvent(new Written());
        }
    }

    /** A ping for one hook, in the caller's transaction. */
    void ping(UUID id, String team, long webhookId, String body) {
        jdbc.sql("INSERT INTO webhook_events (id, team, type, body, webhook_ids) VALUES (?, ?, ?, ?, ?)")
                .params(id, team, EventType.PING, body, new Long[] {webhookId})
                .update();
        events.publishEvent(new Written());
    }

    /** A delivery made by hand, for the dispatcher to be woken once it commits. */
    void redelivered() {
        events.publishEvent(new Written());
    }

    /** A glob of job names ({@code *} any run of characters, {@code ?} one) as a LIKE pattern escaped with {@code \}. */
    static String likePattern(String glob) {
        var pattern = new StringBuilder();
        for (char c : glob.toCharArray()) {
            switch (c) {
                case '*' -> pattern.append('%');
                case '?' -> pattern.append('_');
                case '%', '_', '\\' -> pattern.append('\\').append(c);
                default -> pattern.append(c);
            }
        }
        return pattern.toString();
    }
}
