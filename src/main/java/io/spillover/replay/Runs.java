package io.spillover.replay;

import io.spillover.placement.ExpectedRuns;
import java.time.Duration;
import java.util.Objects;

/**
 * What is known, before it ends, of how long one job runs: never its own run. The scheduler ranks by the expected
 * run ({@link ExpectedRuns}); a forecast also draws run times from the same evidence.
 *
 * @param maxRuntime its maximum run time: it never runs longer (the provider stops it), null for none
 * @param hint       how long its user expects it to run ({@code expectedRuntimeSeconds}), null for none; bounds nothing
 * @param sweep      the sweep it belongs to ({@link ExpectedRuns}), null for none; its members' runs are the situation's
 * @param typical    the run the scheduler expects when its sweep says nothing: the median of its profile's, team's or
 *                   the platform's latest runs, null for none
 * @param pool       those latest runs, to draw from
 */
public record Runs(Duration maxRuntime, Duration hint, String sweep, Duration typical, RunPool pool) {

    /** Nothing known at all. */
    public static final Runs UNKNOWN = new Runs(null, null, null, null, RunPool.NONE);

    public Runs {
        Objects.requireNonNull(pool, "pool");
        if (maxRuntime != null && (maxRuntime.isNegative() || maxRuntime.isZero())
                || hint != null && (hint.isNegative() || hint.isZero())) {
            throw new IllegalArgumentException("a maximum run time or a hint is positive");
        }
    }

    /** The run the scheduler expects, given what the sweep shows now. */
    public Duration expected(ExpectedRuns.Sweep known) {
        return ExpectedRuns.expected(maxRuntime, hint, known, typical);
    }
}
