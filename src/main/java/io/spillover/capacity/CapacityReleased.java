package io.spillover.capacity;

import io.spillover.placement.OfferingKey;

/** A job gave back capacity of an offering, held by a team: pending jobs may fit now. */
public record CapacityReleased(OfferingKey offering, String team) {
}
