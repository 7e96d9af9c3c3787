package io.spillover.capacity;

import io.spillover.placement.OfferingKey;

/** An offering's total changed or a mark on it was lifted: pending jobs that list it may fit now. */
public record CapacityChanged(OfferingKey offering, Cause cause) {

    public enum Cause { TOTAL_CHANGED, UNAVAILABLE_EXPIRED }
}
