package io.spillover.webhooks;

import io.spillover.jobs.JobStatus;
import io.spillover.jobs.JobTransitioned;
import io.spillover.jobs.StatusReason;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * What a hook can subscribe to, by the name it subscribes with ({@code job.started}); the CloudEvent's type is
 * that name under {@code io.spillover.}. One transition gives at most two events: a start on an entry other than
 * the first is {@code job.started} and then {@code job.fell-back}.
 */
enum EventType {
    /** Placed on an entry and starting on the provider (PENDING → STARTING), each attempt. */
    STARTED("job.started"),
    /** Started on an entry other than its first (the selection's index above 0). */
    FELL_BACK("job.fell-back"),
    COMPLETED("job.completed"),
    FAILED("job.failed"),
    /** Stopped, for any reason but its maximum pending time. */
    STOPPED("job.stopped"),
    /** Stopped because its maximum pending time passed before capacity was found (MAX_PENDING_TIME_EXCEEDED). */
    PENDING_TIMEOUT("job.pending-timeout"),
    /**
     * Being preempted (RUNNING → STOPPING, PREEMPTED): it is stopped with a grace to give instances it borrowed back
     * to their team, and then waits again at its queue position to resume from its checkpoint.
     */
    PREEMPTED("job.preempted");

    /** The type of the event {@code POST .../webhooks/{webhook}:test} sends; not one to subscribe to. */
    static final String PING = "io.spillover.webhook.ping";

    private final String subscription;

    EventType(String subscription) {
        this.subscription = subscription;
    }

    String subscription() {
        return subscription;
    }

    String cloudEventType() {
        return "io.spillover." + subscription;
    }

    static Optional<EventType> bySubscription(String name) {
        return Arrays.stream(values()).filter(t -> t.subscription.equals(name)).findFirst();
    }

    static List<String> subscriptions() {
        return Arrays.stream(values()).map(EventType::subscription).toList();
    }

    /** The events a transition gives, in the order they happened. */
    static List<EventType> of(JobTransitioned change) {
        var types = new ArrayList<EventType>();
        JobStatus to = change.status();
        if (to == JobStatus.STARTING && change.transition().from() == JobStatus.PENDING) {
            types.add(STARTED);
            if (change.job().selection() != null && change.job().selection().index() > 0) {
                types.add(FELL_BACK);
            }
        } else if (to == JobStatus.COMPLETED) {
            types.add(COMPLETED);
        } else if (to == JobStatus.FAILED) {
            types.add(FAILED);
        } else if (to == JobStatus.STOPPING && change.transition().reason() == StatusReason.PREEMPTED
                && change.transition().from() != JobStatus.STOPPING) {
            types.add(PREEMPTED);
        } else if (to == JobStatus.STOPPED) {
            types.add(change.transition().reason() == StatusReason.MAX_PENDING_TIME_EXCEEDED ? PENDING_TIMEOUT : STOPPED);
        }
        return types;
    }
}
