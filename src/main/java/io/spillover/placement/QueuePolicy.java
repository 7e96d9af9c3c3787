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
 * @param patienceShare a job's patience, unless it sets its own, is at least this share of its expected run: a
 *                      long job, which loses most by running on a slower fallback, waits longer for the types it
 *                      prefers; 0 for none
 * @param precedenceLapse with precedence, the response ratio (wait plus expected run, over expected run) at which a
 *                      job stops yielding: from then on every round offers it all its entries, so it competes for
 *                      its fallbacks as for its first choice, by rank. 2 lapses once a job has waited as long as its
 *                      expected run; 0 never lapses. Without it a job whose earlier entries are held for days (a
 *                      plan held by long runs) never gets its fallbacks while fresher jobs list them first
 */
public record QueuePolicy(boolean precedence, Duration fallbackAfter, boolean fairShare, Duration shareHalfLife,
                          boolean shortestFirst, Duration reserveAfter, double patienceShare, double precedenceLapse,
                          boolean holdAfterRun) {

    /** The response ratio, (wait + expected run) / expected run, of a job that has waited as long as its run. */
    public static final double WAITED_ITS_RUN = 2;

    /**
     * The platform's default, chosen on the trace replay (docs/benchmarks.md, section 2): precedence until a job has
     * waited as long as its expected run, shortest expected run first, holds for jobs of several instances once they
     * have waited a day and their expected run, and patience of 1 % of the expected run for a job's earlier entries
     * (a job of 10 h waits 6 min for its first choice before taking its second): with guarantees lent, long jobs
     * falling back to slower types were what kept the mean completion above a free-for-all script's. Precedence that
     * never lapsed left short jobs listing a plan first waiting days for it on the overloaded fleet while their
     * fallbacks went to fresher jobs; holds on age alone kept instances idle there for jobs of days while short jobs
     * waited. A fixed patience (per job, profile or platform) and fair share (one-day half-life) are there to turn on,
     * as AWS Batch's fair share is per queue: on the replay each lengthened the mean wait, and fair share did not even
     * out the teams' slowdowns.
     */
    public static final QueuePolicy DEFAULT = new QueuePolicy(true, Duration.ZERO, false, Duration.ofDays(1), true,
            Duration.ofDays(1), 0.01, WAITED_ITS_RUN, true);

    /** The queue as first built: queue order, first fit, no fair share, no holds. */
    public static final QueuePolicy FIRST_FIT = new QueuePolicy(false, Duration.ZERO, false, Duration.ofDays(1), false,
            null, 0, 0, false);

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
        if (!(patienceShare >= 0)) {
            throw new IllegalArgumentException("patienceShare must be a number >= 0");
        }
        if (!isPrecedenceLapse(precedenceLapse)) {
            throw new IllegalArgumentException("precedenceLapse must be 0 (never) or a response ratio >= 1");
        }
    }

    /** Whether the value may be a {@link #precedenceLapse}: 0 (never), or a finite response ratio of at least 1. */
    public static boolean isPrecedenceLapse(double value) {
        return value == 0 || value >= 1 && Double.isFinite(value);
    }

    /** Whether a job of this response ratio no longer yields its later entries to jobs that list them earlier. */
    public boolean precedenceLapsed(double responseRatio) {
        return precedenceLapse > 0 && responseRatio >= precedenceLapse;
    }

    /**
     * Whether a job of several instances that has waited this long, at this response ratio, holds what frees on its
     * best entry ({@link #reserveAfter}, and with {@link #holdAfterRun} as long as its expected run).
     */
    public boolean holds(Duration waited, double responseRatio) {
        return reserveAfter != null && waited.compareTo(reserveAfter) >= 0
                && (!holdAfterRun || responseRatio >= WAITED_ITS_RUN);
    }

    public QueuePolicy withFallbackAfter(Duration patience) {
        return new QueuePolicy(precedence, patience, fairShare, shareHalfLife, shortestFirst, reserveAfter,
                patienceShare, precedenceLapse, holdAfterRun);
    }

    public QueuePolicy withPrecedence(boolean on) {
        return new QueuePolicy(on, fallbackAfter, fairShare, shareHalfLife, shortestFirst, reserveAfter,
                patienceShare, precedenceLapse, holdAfterRun);
    }

    public QueuePolicy withFairShare(boolean on) {
        return new QueuePolicy(precedence, fallbackAfter, on, shareHalfLife, shortestFirst, reserveAfter,
                patienceShare, precedenceLapse, holdAfterRun);
    }

    public QueuePolicy withShareHalfLife(Duration halfLife) {
        return new QueuePolicy(precedence, fallbackAfter, fairShare, halfLife, shortestFirst, reserveAfter,
                patienceShare, precedenceLapse, holdAfterRun);
    }

    public QueuePolicy withShortestFirst(boolean on) {
        return new QueuePolicy(precedence, fallbackAfter, fairShare, shareHalfLife, on, reserveAfter, patienceShare,
                precedenceLapse, holdAfterRun);
    }

    public QueuePolicy withReserveAfter(Duration age) {
        return new QueuePolicy(precedence, fallbackAfter, fairShare, shareHalfLife, shortestFirst, age,
                patienceShare, precedenceLapse, holdAfterRun);
    }

    public QueuePolicy withPatienceShare(double share) {
        return new QueuePolicy(precedence, fallbackAfter, fairShare, shareHalfLife, shortestFirst, reserveAfter,
                share, precedenceLapse, holdAfterRun);
    }

    public QueuePolicy withPrecedenceLapse(double responseRatio) {
        return new QueuePolicy(precedence, fallbackAfter, fairShare, shareHalfLife, shortestFirst, reserveAfter,
                patienceShare, responseRatio, holdAfterRun);
    }

    public QueuePolicy withHoldAfterRun(boolean on) {
        return new QueuePolicy(precedence, fallbackAfter, fairShare, shareHalfLife, shortestFirst, reserveAfter,
                patienceShare, precedenceLapse, on);
    }
}
