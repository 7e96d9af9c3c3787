package io.spillover.placement;

import java.time.Instant;
import java.util.Objects;

/**
 * Capacity of one offering at the moment of a snapshot.
 *
 * @param unavailableUntil when set and in the future, the offering is not used (after an
 *                         insufficient-capacity refusal, say) whatever its counts
 * @param unavailableCause why it was marked, in words ("an insufficient-capacity error")
 */
public record OfferingState(OfferingKey key, int total, int inUse, Instant unavailableUntil, String unavailableCause) {

    public OfferingState {
        Objects.requireNonNull(key, "key");
        if (total < 0 || inUse < 0) {
            throw new IllegalArgumentException("counts cannot be negative: " + key);
        }
    }

    public static OfferingState of(OfferingKey key, int total, int inUse) {
        return new OfferingState(key, total, inUse, null, null);
    }

    /** Free instances; an offering shrunk below its use has none. */
    public int available() {
        return Math.max(0, total - inUse);
    }

    public boolean unavailableAt(Instant now) {
        return unavailableUntil != null && unavailableUntil.isAfter(now);
    }

    OfferingState taking(int count) {
        return new OfferingState(key, total, inUse + count, unavailableUntil, unavailableCause);
    }
}
