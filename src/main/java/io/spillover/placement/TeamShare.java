package io.spillover.placement;

import java.time.Duration;
import java.time.Instant;

/**
 * A team's part in fair share: its weight and what it used, in share units (accelerators, or instances of
 * types without accelerators) times seconds, decayed with the platform's half-life: usage {@code h} ago
 * counts half, {@code 2h} ago a quarter. A run is charged when it starts, by {@link #charge}, and its
 * charge is replaced by what it really used when it ends.
 *
 * @param usage decayed usage of the team's ended runs plus the charges of its running ones, at the snapshot
 */
public record TeamShare(int weight, double usage) {

    public static final TeamShare NEW_TEAM = new TeamShare(1, 0);

    public TeamShare {
        if (weight < 1) {
            throw new IllegalArgumentException("weight must be at least 1");
        }
        if (!(usage >= 0)) {
            throw new IllegalArgumentException("usage must be a number >= 0");
        }
    }

    /** Usage measured at {@code from}, as it counts at {@code to}. */
    public static double decay(double usage, Instant from, Instant to, Duration halfLife) {
        double seconds = Duration.between(from, to).toMillis() / 1000.0;
        return seconds <= 0 ? usage : usage * Math.pow(0.5, seconds / halfLife.toSeconds());
    }

    /**
     * What a run of {@code units} share units from {@code start} to {@code end} adds to usage at {@code end}:
     * the integral of its units, each second decayed by its age at the end.
     */
    public static double ofRun(int units, Instant start, Instant end, Duration halfLife) {
        double seconds = Math.max(0, Duration.between(start, end).toMillis() / 1000.0);
        return units * meanLife(halfLife) * (1 - Math.pow(0.5, seconds / halfLife.toSeconds()));
    }

    /**
     * What a run starting now is charged until it ends: its units for its expected run time, decayed as
     * {@link #ofRun} would at its end; a run of unknown length is charged for one mean life.
     */
    public static double charge(int units, Duration expectedRuntime, Duration halfLife) {
        Instant start = Instant.EPOCH;
        return expectedRuntime == null ? units * meanLife(halfLife)
                : ofRun(units, start, start.plus(expectedRuntime), halfLife);
    }

    /**
     * The decay's time constant, h / ln 2: what one unit held for ever adds up to. A team's current holdings
     * count as if kept that long, so that a booking weighs at once in the pass that made it.
     */
    public static double meanLife(Duration halfLife) {
        return halfLife.toSeconds() / Math.log(2);
    }
}
