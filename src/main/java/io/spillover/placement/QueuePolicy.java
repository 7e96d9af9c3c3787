package io.spillover.placement;

import java.time.Duration;
import java.util.Objects;

/**
 * How the queue is served, beyond queue order. Every rule can be turned off; {@link #FIRST_FIT} turns all
 * off and serves the queue as SPEC §3.4.2 first did: in queue order, each job on the first entry that fits.
 *
 * @param precedence    a job for whom an offering is an earlier entry goes before one for whom it is a
 *                      fallback: the pass offers every job its first entry, then its second, and so on
 * @param fallbackAfter a job's patience, unless it sets its own: it takes its on-demand entry {@code i} only
 *                      once it has waited {@code i} times this long, so it waits a while for the types it
 *                      prefers (an entry on a training plan is never held back: the plan is paid for);
 *                      zero takes the first entry that fits
 * @param fairShare     teams compete by decayed usage against their weight: the team furthest below its share
 *                      goes first; priority and submission order still rank the jobs within a team
 * @param shareHalfLife how fast past usage is forgotten
 * @param shortestFirst within a team and a priority, the job with the highest response ratio (wait plus
 *                      expected run, over expected run) goes first: short jobs first, and a long job's ratio
 *                      grows as it waits, so it is not passed over for ever; without, submission order
 * @param reserveAfter  a job of several instances that has waited this long holds the instances that free on
 *                      its best entry until it has them all, so that smaller jobs cannot keep taking them
 *                      first; null never holds
 */
public record QueuePolicy(boolean precedence, Duration fallbackAfter, boolean fairShare, Duration shareHalfLife,
                          boolean shortestFirst, Duration reserveAfter) {

    /**
     * The platform's default, chosen on the trace replay (docs/benchmarks.md, section 2): precedence, shortest
     * expected run first, and holds for jobs of several instances after a day. Patience (per job, profile or
     * platform) and fair share (one-day half-life) are there to turn on, as AWS Batch's fair share is per
     * queue: on the replay each lengthened the mean wait, and fair share did not even out the teams' slowdowns.
     */
    public static final QueuePolicy DEFAULT = new QueuePolicy(true, Duration.ZERO, false, Duration.ofDays(1), true,
            Duration.ofDays(1));

    /** The queue as first built: queue order, first fit, no fair share, no holds. */
    public static final QueuePolicy FIRST_FIT = new QueuePolicy(false, Duration.ZERO, false, Duration.ofDays(1), false,
            null);

    public QueuePolicy {
        Objects.requireNonNull(fallbackAfter, "fallbackAfter");
        Objects.requireNonNull(shareHalfLife, "shareHalfLife");
        if (fallbackAfter.isNegative()) {
            throw new IllegalArgumentException("fallbackAfter cannot be negative");
        }
        if (shareHalfLife.isNegative() || shareHalfLife.isZero()) {
            throw new IllegalArgumentException("shareHalfLife must be positive");
        }
        if (reserveAfter != null && reserveAfter.isNegative()) {
            throw new IllegalArgumentException("reserveAfter cannot be negative");
        }
    }

    public QueuePolicy withFallbackAfter(Duration patience) {
        return new QueuePolicy(precedence, patience, fairShare, shareHalfLife, shortestFirst, reserveAfter);
    }

    public QueuePolicy withPrecedence(boolean on) {
        return new QueuePolicy(on, fallbackAfter, fairShare, shareHalfLife, shortestFirst, reserveAfter);
    }

    public QueuePolicy withFairShare(boolean on) {
        return new QueuePolicy(precedence, fallbackAfter, on, shareHalfLife, shortestFirst, reserveAfter);
    }

    public QueuePolicy withShareHalfLife(Duration halfLife) {
        return new QueuePolicy(precedence, fallbackAfter, fairShare, halfLife, shortestFirst, reserveAfter);
    }

    public QueuePolicy withShortestFirst(boolean on) {
        return new QueuePolicy(precedence, fallbackAfter, fairShare, shareHalfLife, on, reserveAfter);
    }

    public QueuePolicy withReserveAfter(Duration age) {
        return new QueuePolicy(precedence, fallbackAfter, fairShare, shareHalfLife, shortestFirst, age);
    }
}
