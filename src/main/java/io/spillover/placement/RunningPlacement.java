package io.spillover.placement;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * A running job's placement, as the snapshot holds it: what the queue pass needs to decide a reclaim. The service
 * reads one per job holding capacity (starting, running or stopping); the replay keeps them in its ledger.
 *
 * @param job          the job's id, in words (a reason names it)
 * @param team         whose job it is
 * @param offering     where it runs
 * @param instances    how many instances it holds there
 * @param priority     the job's priority: a reclaim preempts the lowest first
 * @param startedAt    when this attempt started: a reclaim preempts placements past their minimum run
 *                     ({@link SharingPolicy#preemptExempt}) before those within it, and the most recently started first
 *                     (least work lost)
 * @param borrowed     whether it was placed beyond its team's guarantee (its {@link Decision#borrowed()})
 * @param preemptible  whether it may be stopped and resumed from a checkpoint: it opted in and has one
 * @param maxRuntime   its maximum run time, null for none: a bounded borrower ends by {@code startedAt + maxRuntime}
 * @param preemptions  how many times the job was preempted before this attempt
 * @param preemptedAt  when a reclaim stopped it (it is within its grace and its instances come back soon), null when
 *                     it is not being stopped
 */
public record RunningPlacement(String job, String team, OfferingKey offering, int instances, int priority,
                               Instant startedAt, boolean borrowed, boolean preemptible, Duration maxRuntime,
                               int preemptions, Instant preemptedAt) {

    public RunningPlacement {
        Objects.requireNonNull(job, "job");
        Objects.requireNonNull(team, "team");
        Objects.requireNonNull(offering, "offering");
        Objects.requireNonNull(startedAt, "startedAt");
        if (instances < 1) {
            throw new IllegalArgumentException("a running placement holds at least one instance");
        }
        if (preemptions < 0) {
            throw new IllegalArgumentException("preemptions cannot be negative");
        }
    }

    public String instanceType() {
        return offering.instanceType();
    }

    /** Whether a reclaim has stopped it already: its instances are on their way back. */
    public boolean stopping() {
        return preemptedAt != null;
    }

    /** When its minimum run ends: before then a reclaim stops it only when nothing else covers the lender's need. */
    public Instant exemptUntil(SharingPolicy policy) {
        return startedAt.plus(policy.preemptExempt());
    }

    /** The same placement, being stopped by a reclaim since {@code at}. */
    public RunningPlacement preempted(Instant at) {
        return new RunningPlacement(job, team, offering, instances, priority, startedAt, borrowed, preemptible,
                maxRuntime, preemptions, at);
    }
}
