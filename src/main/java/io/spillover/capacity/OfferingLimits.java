package io.spillover.capacity;

import io.spillover.catalog.JobKind;
import io.spillover.placement.OfferingKey;
import io.spillover.placement.PreferenceEntry;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The on-demand offerings' limits as last read, under a provider that reads its account's limits: what says of
 * a preference entry that it can never run, however long it waited. Only what would not change by waiting
 * counts: no offering in a region whose quotas were read, a quota of 0, a count above the quota (or above a
 * declared total). Instances in use, by Spillover or outside it, and unavailable marks pass: they end. Only a quota
 * actually read refuses: a region never read, an offering whose limit is unknown, and a limit learned from a refusal
 * in a region never read, pass (SageMaker itself has the last word on them).
 */
public final class OfferingLimits {

    private final Map<OfferingKey, Offering> offerings = new HashMap<>();
    private final Set<String> regionsRead;

    OfferingLimits(List<Offering> offerings, Set<String> regionsRead) {
        offerings.forEach(o -> this.offerings.put(o.key(), o));
        this.regionsRead = Set.copyOf(regionsRead);
    }

    /** Why the entry can never run, in words; empty when it may run some day. Plan entries are checked as plans. */
    public Optional<String> neverRuns(JobKind kind, PreferenceEntry entry) {
        OfferingKey key = entry.offering();
        if (key.isPlan()) {
            return Optional.empty();
        }
        String type = entry.instanceType();
        String quotaName = "'" + type + " for " + kind.name().toLowerCase(Locale.ROOT) + " job usage'";
        Offering offering = offerings.get(key);
        if (offering == null) {
            return regionsRead.contains(entry.region())
                    ? Optional.of("no offering of " + type + " in " + entry.region() + ": the account's service quotas"
                            + " there list no " + quotaName + " and no fleet entry declares it")
                    : Optional.empty(); // the region was never read: it may get an offering
        }
        if (offering.limitSource() == Offering.LimitSource.UNKNOWN
                || offering.limitSource() == Offering.LimitSource.LEARNED && !regionsRead.contains(entry.region())) {
            return Optional.empty();
        }
        int count = entry.instanceCount();
        if (offering.limitSource() == Offering.LimitSource.DECLARED) {
            if (count > offering.total()) {
                return Optional.of("the fleet declares " + offering.total() + " instances of " + type + " in "
                        + entry.region() + ", not " + count);
            }
            return Optional.empty();
        }
        Integer quota = kind == JobKind.TRAINING ? offering.trainingQuota() : offering.processingQuota();
        if (quota == null) {
            return Optional.of("the account's service quotas in " + entry.region() + " list no " + quotaName);
        }
        String stated = offering.limitSource() == Offering.LimitSource.LEARNED
                ? "the account's service quota " + quotaName + " in " + entry.region() + ", as the provider stated it,"
                : "the account's applied service quota " + quotaName + " in " + entry.region();
        if (quota == 0) {
            return Optional.of(stated + " is 0");
        }
        if (count > quota) {
            return Optional.of(stated + " is " + quota + " instances, not " + count);
        }
        return Optional.empty();
    }
}
