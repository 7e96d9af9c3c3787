package io.spillover.placement;

import java.time.Instant;
import java.util.Objects;

/**
 * Capacity of one offering at the moment of a snapshot.
 *
 * @param unavailableUntil when set and in the future, the offering is not used (after an
 *                         insufficient-capacity refusal, say) whatever its counts
 * @param unavailableCause why it was marked, in words ("an insufficient-capacity error")
 * @param limitNote        what a user should know of its limit when it is taken, in words ("the account's service
 *                         quota for it is unknown ..., so it is tried"); null for most offerings
 */
public record OfferingState(OfferingKey key, int total, int inUse, Instant unavailableUntil, String unavailableCause,
                            String limitNote) {

    public OfferingState {
        Objects.requireNonNull(key, "key");
        if (total < 0 || inUse < 0) {
            throw new IllegalArgumentException("counts cannot be negative: " + key);
        }
    }

    public OfferingState(OfferingKey key, int total, int inUse, Instant unavailableUntil, String unavailableCause) {
        this(key, total, inUse, unavailableUntil, unavailableCause, null);
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
        return new OfferingState(key, total, inUse + count, unavailableUntil, unavailableCause, limitNote);
    }
}
