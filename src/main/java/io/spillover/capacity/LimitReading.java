package io.spillover.capacity;

import java.util.List;
import java.util.Map;

/**
 * One reading of the account's limits by the provider.
 *
 * @param regionsRead      the regions whose quotas were read; their offerings nobody declared follow {@code limits}
 * @param regionsFailed    by region, why it could not be read; its offerings stay as they were
 * @param limits           per region and type, what the account allows
 * @param outsideUncounted jobs outside Spillover seen but not described this time (a cap per reading), so not
 *                         yet subtracted
 */
public record LimitReading(List<String> regionsRead, Map<String, String> regionsFailed, List<AccountLimit> limits,
                           int outsideUncounted) {

    public LimitReading {
        regionsRead = List.copyOf(regionsRead);
        regionsFailed = Map.copyOf(regionsFailed);
        limits = List.copyOf(limits);
    }

    static LimitReading none() {
        return new LimitReading(List.of(), Map.of(), List.of(), 0);
    }
}
