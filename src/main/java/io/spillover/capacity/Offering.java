package io.spillover.capacity;

import io.spillover.placement.OfferingKey;
import io.spillover.placement.OfferingState;
import java.time.Instant;

/** One offering's row: capacity, use and any unavailable mark. */
public record Offering(long id, String provider, OfferingKey key, int total, int inUse,
                       Instant unavailableUntil, String unavailableCause) {

    public int available() {
        return Math.max(0, total - inUse);
    }

    public OfferingState state() {
        return new OfferingState(key, total, inUse, unavailableUntil, unavailableCause);
    }
}
