package io.spillover.capacity;

import io.spillover.placement.OfferingKey;
import io.spillover.placement.OfferingState;
import java.time.Instant;
import java.util.Locale;

/**
 * One offering's row: capacity, use, any unavailable mark, and where its total came from.
 *
 * @param limitSource     {@code declared}, {@code quota} or {@code learned} (see {@link LimitSource})
 * @param trainingQuota   the account's quota for training jobs of the type, when read or learned
 * @param processingQuota the account's quota for processing jobs of the type, when read or learned
 * @param outsideUse      instances the account's jobs outside Spillover held at the last reading
 */
public record Offering(long id, String provider, OfferingKey key, int total, int inUse,
                       Instant unavailableUntil, String unavailableCause, LimitSource limitSource,
                       Integer trainingQuota, Integer processingQuota, Integer outsideUse) {

    /** Where an offering's total came from. */
    public enum LimitSource {
        /** A fleet table entry or an admin: it wins over any quota. */
        DECLARED,
        /** The account's applied service quotas, less use outside Spillover. */
        QUOTA,
        /** A refused launch named the account's limit; it stands until the next reading. */
        LEARNED;

        public String value() {
            return name().toLowerCase(Locale.ROOT);
        }

        static LimitSource of(String value) {
            return valueOf(value.toUpperCase(Locale.ROOT));
        }
    }

    public int available() {
        return Math.max(0, total - inUse);
    }

    public OfferingState state() {
        return new OfferingState(key, total, inUse, unavailableUntil, unavailableCause);
    }
}
