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
 * @param quotaUnknownBecause for a limit that is {@link LimitSource#UNKNOWN}, why its region's quotas could not be
 *                        read, in words
 */
public record Offering(long id, String provider, OfferingKey key, int total, int inUse,
                       Instant unavailableUntil, String unavailableCause, LimitSource limitSource,
                       Integer trainingQuota, Integer processingQuota, Integer outsideUse, String quotaUnknownBecause) {

    /**
     * The total of an offering whose limit is unknown: what Spillover may start of it before the provider's own
     * answer (a refusal naming the limit) teaches it the real one. Team quotas still hold.
     */
    public static final int UNKNOWN_TOTAL = 10_000;

    public Offering(long id, String provider, OfferingKey key, int total, int inUse, Instant unavailableUntil,
                    String unavailableCause, LimitSource limitSource, Integer trainingQuota, Integer processingQuota,
                    Integer outsideUse) {
        this(id, provider, key, total, inUse, unavailableUntil, unavailableCause, limitSource, trainingQuota,
                processingQuota, outsideUse, null);
    }

    /** Where an offering's total came from. */
    public enum LimitSource {
        /** A fleet table entry or an admin: it wins over any quota. */
        DECLARED,
        /** The account's applied service quotas, less use outside Spillover. */
        QUOTA,
        /** A refused launch named the account's limit; it stands until the next reading. */
        LEARNED,
        /** The region's quotas could never be read: the type is tried, and the provider's answer is the limit. */
        UNKNOWN;

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
        return new OfferingState(key, total, inUse, unavailableUntil, unavailableCause, limitSource == LimitSource.UNKNOWN
                ? "the account's service quota for it is unknown (" + (quotaUnknownBecause == null
                ? "its region's quotas were not read yet" : quotaUnknownBecause) + "), so it is tried" : null);
    }
}
