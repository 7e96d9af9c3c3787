package io.spillover.placement;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * The platform's rules for lending and borrowing guarantees (SPEC §8.1), the same in the scheduler, the explain
 * endpoint and the replay.
 *
 * <p>A job may borrow (run beyond its team's guarantee) only when its team's {@link SharingStrategy} borrows, within
 * the team's {@link BorrowLimit}, on capacity that is free, not kept by teams that reserve their idle guarantee, and
 * not needed by a team below its guarantee with a job waiting for it; and only when the loan is bounded: the job's
 * maximum run time is at most {@link #borrowHorizon} (it is never preempted, and its lender waits at most that), or
 * it is preemptible (it has a checkpoint to resume from; its lender waits at most {@link #reclaimBound}).
 *
 * @param enabled       false: guarantees are hard limits, nothing is lent or borrowed whatever the teams' strategies
 * @param borrowHorizon the longest maximum run time of a job that borrows without being preemptible
 * @param preemptExempt the minimum run a reclaim lets a preemptible job have when it can (Slurm's
 *                      {@code PreemptExemptTime}): a reclaim stops placements past it before placements within it,
 *                      and stops one within it only when nothing else covers the lender's need, since the lender's
 *                      bound does not wait for it
 * @param grace         how long a preempted job has between the stop signal (SIGTERM) and being stopped, to write its
 *                      checkpoint; SageMaker's {@code StopTrainingJob} allows 120 s. The service applies it; the pass
 *                      only counts it into the bound
 * @param cycle         the longest the scheduler takes to act on a reclaim it decided, counted into the bound
 * @param whenCanBorrow how a preference list chooses between borrowing on an earlier entry and fitting within the
 *                      guarantee on a later one
 * @param shorterFirst  0: off. Otherwise a waiting job that fits nowhere may preempt preemptible jobs of its own team,
 *                      placed within the guarantee (a borrowed one is the lenders'), of no higher priority and past
 *                      their minimum run, that may still run at least this many times its own maximum run time, so
 *                      that a team's short jobs do not wait hours behind its own long ones (in-team preemption, as
 *                      AWS Batch's in-share preemption, by run length rather than priority). The team stays within
 *                      its guarantee: the job takes what its teammates give back. A job gives way at most once (one
 *                      preempted before, for any reason, never does), and resumes before its team's other jobs of its
 *                      priority ({@link QueuedRequest#gaveWay}): it pays about the short job's run, not a place at the
 *                      back of a shortest-first queue
 */
public record SharingPolicy(boolean enabled, Duration borrowHorizon, Duration preemptExempt, Duration grace,
                            Duration cycle, WhenCanBorrow whenCanBorrow, double shorterFirst) {

    /**
     * How a preference list chooses between borrowing and its guarantee (Kueue's {@code whenCanBorrow}).
     */
    public enum WhenCanBorrow {
        /**
         * An earlier entry the job can borrow beats a later one within its guarantee: the job takes its list's order
         * as its preference, and borrows what it prefers when it is idle (Kueue's {@code Borrow}).
         */
        BORROW,
        /**
         * Any entry within the guarantee beats borrowing: the job borrows only when no entry of its list fits within
         * its team's guarantee (Kueue's {@code TryNextFlavor}).
         */
        TRY_NEXT_ENTRY
    }

    /**
     * The platform's default: a 4 h borrow horizon, 10 min minimum run, SageMaker's 120 s grace, a 60 s cycle;
     * {@link WhenCanBorrow#BORROW}, as measured on the replay (docs/sharing.md); no in-team preemption.
     */
    public static final SharingPolicy DEFAULT = new SharingPolicy(true, Duration.ofHours(4), Duration.ofMinutes(10),
            Duration.ofSeconds(120), Duration.ofSeconds(60), WhenCanBorrow.BORROW, 0);

    /** The ratio of {@link #shorterFirst} that the docs measure, and the replay's {@code shorter-first} policy uses. */
    public static final double SHORTER_FIRST_RATIO = 4;

    /** Hard limits: today's quotas, nothing lent or borrowed. */
    public static final SharingPolicy OFF = DEFAULT.withEnabled(false);

    public SharingPolicy {
        Objects.requireNonNull(borrowHorizon, "borrowHorizon");
        Objects.requireNonNull(preemptExempt, "preemptExempt");
        Objects.requireNonNull(grace, "grace");
        Objects.requireNonNull(cycle, "cycle");
        Objects.requireNonNull(whenCanBorrow, "whenCanBorrow");
        if (borrowHorizon.isNegative() || preemptExempt.isNegative() || grace.isNegative() || cycle.isNegative()) {
            throw new IllegalArgumentException("sharing durations cannot be negative");
        }
        if (!(shorterFirst == 0 || shorterFirst >= 1 && shorterFirst < Double.POSITIVE_INFINITY)) {
            throw new IllegalArgumentException("shorterFirst must be 0 (off) or a ratio of at least 1, not "
                    + shorterFirst);
        }
    }

    /**
     * Whether a running job of the waiting job's team is long enough to give way to it under {@link #shorterFirst}:
     * what it may still run (its maximum run time's end; for ever without one) is at least the ratio times the
     * waiting job's maximum run time. Never when it is off, when the waiting job declares no maximum run time, or
     * when the running job was preempted before: a job gives way at most once.
     */
    public boolean givesWay(Duration waitingMaxRuntime, RunningPlacement running, Instant now) {
        if (shorterFirst == 0 || waitingMaxRuntime == null || running.preemptions() > 0) {
            return false;
        }
        if (running.maxRuntime() == null) {
            return true;
        }
        Duration left = Duration.between(now, running.startedAt().plus(running.maxRuntime()));
        return left.toMillis() >= shorterFirst * waitingMaxRuntime.toMillis();
    }

    /**
     * The longest a lender's job, fitting within its team's guarantee, waits for a preemptible borrower's instances:
     * its grace and one cycle. A borrower's minimum run does not delay a reclaim; it only orders the victims.
     */
    public Duration reclaimBound() {
        return grace.plus(cycle);
    }

    /** Whether a job with this maximum run time and checkpoint may borrow at all: its loan has a bound. */
    public boolean bounded(Duration maxRuntime, boolean preemptible) {
        return preemptible || maxRuntime != null && maxRuntime.compareTo(borrowHorizon) <= 0;
    }

    public SharingPolicy withEnabled(boolean on) {
        return new SharingPolicy(on, borrowHorizon, preemptExempt, grace, cycle, whenCanBorrow, shorterFirst);
    }

    public SharingPolicy withBorrowHorizon(Duration horizon) {
        return new SharingPolicy(enabled, horizon, preemptExempt, grace, cycle, whenCanBorrow, shorterFirst);
    }

    public SharingPolicy withPreemptExempt(Duration exempt) {
        return new SharingPolicy(enabled, borrowHorizon, exempt, grace, cycle, whenCanBorrow, shorterFirst);
    }

    public SharingPolicy withGrace(Duration newGrace) {
        return new SharingPolicy(enabled, borrowHorizon, preemptExempt, newGrace, cycle, whenCanBorrow, shorterFirst);
    }

    public SharingPolicy withCycle(Duration newCycle) {
        return new SharingPolicy(enabled, borrowHorizon, preemptExempt, grace, newCycle, whenCanBorrow, shorterFirst);
    }

    public SharingPolicy withShorterFirst(double ratio) {
        return new SharingPolicy(enabled, borrowHorizon, preemptExempt, grace, cycle, whenCanBorrow, ratio);
    }

    public SharingPolicy withWhenCanBorrow(WhenCanBorrow when) {
        return new SharingPolicy(enabled, borrowHorizon, preemptExempt, grace, cycle, when, shorterFirst);
    }
}
