package io.spillover.placement;

import io.spillover.catalog.JobKind;
import java.time.Duration;
import java.util.Objects;

/**
 * A job as placement sees it: whose it is, what kind, where it may run, and what bounds it if it borrows.
 *
 * @param maxRuntime  its maximum run time, null for none: at most {@link SharingPolicy#borrowHorizon}, it may borrow
 *                    without being preemptible
 * @param preemptible whether it may be stopped and resumed from its checkpoint (it opted in and names one): it may
 *                    borrow whatever its run time, and a reclaim may stop it when it borrows
 */
public record PlacementRequest(String team, JobKind kind, PreferenceList preferences, Duration maxRuntime,
                               boolean preemptible) {

    public PlacementRequest {
        Objects.requireNonNull(team, "team");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(preferences, "preferences");
        if (maxRuntime != null && (maxRuntime.isNegative() || maxRuntime.isZero())) {
            throw new IllegalArgumentException("maxRuntime must be positive");
        }
    }

    /** A job with no maximum run time that may not be preempted: it never borrows. */
    public PlacementRequest(String team, JobKind kind, PreferenceList preferences) {
        this(team, kind, preferences, null, false);
    }

    /** The same job asking for another list. */
    public PlacementRequest withPreferences(PreferenceList other) {
        return new PlacementRequest(team, kind, other, maxRuntime, preemptible);
    }

    /** The same job, preemptible or not. */
    public PlacementRequest withPreemptible(boolean value) {
        return new PlacementRequest(team, kind, preferences, maxRuntime, value);
    }
}
