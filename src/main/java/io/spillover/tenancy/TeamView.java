package io.spillover.tenancy;

import java.util.Map;

/** A team as the API shows it: who it is, its quota and what it uses now. */
public record TeamView(String name, String displayName, int weight, Queueing queueing, Quotas quotas, Usage usage) {

    public record Quotas(Map<String, Integer> instanceLimits, Integer maxAccelerators, Integer maxConcurrentJobs) {
    }

    public record Usage(Map<String, Integer> instancesInUse, int acceleratorsInUse, int jobsInUse) {
    }
}
