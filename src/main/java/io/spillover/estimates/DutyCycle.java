package io.spillover.estimates;

import java.time.Duration;

/**
 * How much of a core the estimator may keep busy: it earns credit at {@code share} of the time that passes and
 * spends what each estimation takes. An estimation of changes may begin whenever the credit is not negative; a full
 * one only once the credit covers the last full one's cost and a reserve besides, so that the changes right after it
 * need not wait. The credit never exceeds that sum, so over any stretch of time the estimator is busy at most
 * {@code share} of it plus one full estimation and the reserve.
 */
final class DutyCycle {

    private final double share;
    private final long reserve;
    private long credit;
    private long at;
    private long fullCost;

    /**
     * @param share   of one core, over (0, 1]
     * @param reserve kept for estimations of changes after a full one
     * @param now     {@link System#nanoTime()} now
     */
    DutyCycle(double share, Duration reserve, long now) {
        this.share = share;
        this.reserve = reserve.toNanos();
        this.credit = this.reserve;
        this.at = now;
    }

    /** Nanoseconds until an estimation of changes may begin; 0 for now. */
    long untilChanges(long now) {
        return until(now, 0);
    }

    /** Nanoseconds until a full estimation may begin; 0 for now. */
    long untilFull(long now) {
        return until(now, fullCost + reserve);
    }

    /** An estimation that began at {@code now - took} has ended now. */
    void spent(long now, long took, boolean full) {
        accrue(now - took);
        credit += (long) (took * share) - took;
        at = Math.max(at, now);
        if (full) {
            fullCost = took;
        }
    }

    private long until(long now, long needed) {
        accrue(now);
        return credit >= needed ? 0 : (long) Math.ceil((needed - credit) / share);
    }

    private void accrue(long now) {
        if (now > at) {
            credit = Math.min(fullCost + reserve, credit + (long) ((now - at) * share));
            at = now;
        }
    }
}
