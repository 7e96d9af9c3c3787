package io.spillover.tenancy;

import io.spillover.placement.SharingStrategy;
import com.fasterxml.jackson.annotation.JsonIgnore;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * A team as the API shows it: who it is, its quota (the guarantee) and how it shares it, what it uses now and where
 * it stands in fair share.
 */
public record TeamView(String name, String displayName, int weight, Queueing queueing, Quotas quotas, Usage usage,
                       Share share, Sharing sharing) {

    /**
     * Per instance type the team has a guarantee for or uses, in name order: its guarantee, what it uses, borrows and
     * lends, as the console's tables show them.
     */
    @JsonIgnore
    public List<TypeUsage> byType() {
        var types = new TreeSet<>(quotas.instanceLimits().keySet());
        types.addAll(usage.instancesInUse().keySet());
        return types.stream().map(type -> new TypeUsage(type, quotas.instanceLimits().getOrDefault(type, 0),
                usage.instancesInUse().getOrDefault(type, 0), usage.borrowed().getOrDefault(type, 0),
                usage.lent().getOrDefault(type, 0))).toList();
    }

    /** One type's line of {@link #byType}. */
    public record TypeUsage(String instanceType, int guarantee, int inUse, int borrowed, int lent) {
    }

    /**
     * @param fairShare             whether the platform's queue policy orders teams by share
     * @param targetShare           the team's weight over all teams' weights
     * @param usageShare            the team's decayed usage over all teams'
     * @param decayedUsageHours     decayed usage in accelerator-hours (an instance without accelerators counts
     *                              one), the charges of its running jobs included
     * @param shareDecaySeconds     the half-life of usage
     * @param typicalRuntimeSeconds the median of its latest completed runs, null before the first
     */
    public record Share(boolean fairShare, double targetShare, double usageShare, double decayedUsageHours,
                        long shareDecaySeconds, Long typicalRuntimeSeconds) {
    }

    /** @param instanceLimits the team's guarantee per instance type */
    public record Quotas(Map<String, Integer> instanceLimits, Integer maxAccelerators, Integer maxConcurrentJobs) {
    }

    /**
     * @param borrowed per type, the instances the team holds beyond its guarantee
     * @param lent     per type, the part of the team's idle guarantee that other teams' borrowed instances stand on
     */
    public record Usage(Map<String, Integer> instancesInUse, int acceleratorsInUse, int jobsInUse,
                        Map<String, Integer> borrowed, Map<String, Integer> lent) {

        public Usage(Map<String, Integer> instancesInUse, int acceleratorsInUse, int jobsInUse) {
            this(instancesInUse, acceleratorsInUse, jobsInUse, Map.of(), Map.of());
        }
    }

    /**
     * @param enabled            whether the platform lets teams share at all ({@code spillover.sharing.enabled})
     * @param borrowLimitPercent of each type's guarantee, for types without a limit of their own; null for none
     * @param borrowLimits       instances per type the team may hold beyond its guarantee
     */
    public record Sharing(boolean enabled, SharingStrategy strategy, Integer borrowLimitPercent,
                          Map<String, Integer> borrowLimits) {
    }
}
