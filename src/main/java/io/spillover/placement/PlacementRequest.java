package io.spillover.placement;

import io.spillover.catalog.JobKind;
import java.util.Objects;

/** A job as placement sees it: whose it is, what kind, and where it may run. */
public record PlacementRequest(String team, JobKind kind, PreferenceList preferences) {

    public PlacementRequest {
        Objects.requireNonNull(team, "team");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(preferences, "preferences");
    }
}
