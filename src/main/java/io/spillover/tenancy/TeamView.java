package io.spillover.tenancy;

import java.util.Map;

/** A team as the API shows it: who it is, its quota, what it uses now and where it stands in fair share. */
public record TeamView(String name, String displayName, int weight, Queueing queueing, Quotas quotas, Usage usage,
                       Share share) {

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

    public record Quotas(Map<String, Integer> instanceLimits, Integer maxAccelerators, Integer maxConcurrentJobs) {
    }

    public record Usage(Map<String, Integer> instancesInUse, int acceleratorsInUse, int jobsInUse) {
    }
}
