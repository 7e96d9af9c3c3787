package io.spillover.placement;

import java.util.Map;
import java.util.Objects;

/**
 * A team's quota and what it uses now.
 *
 * @param instanceLimits   instances allowed per instance type; a type not listed is not allowed
 * @param maxAccelerators  cap on accelerators in use, null for none
 * @param maxConcurrentJobs cap on jobs holding capacity, null for none
 * @param strictFifo       whether the team's jobs start strictly in queue order
 */
public record TeamState(String team, Map<String, Integer> instanceLimits, Map<String, Integer> instancesInUse,
                        Integer maxAccelerators, int acceleratorsInUse,
                        Integer maxConcurrentJobs, int jobsInUse, boolean strictFifo) {

    public TeamState {
        Objects.requireNonNull(team, "team");
        instanceLimits = Map.copyOf(instanceLimits);
        instancesInUse = Map.copyOf(instancesInUse);
    }

    public int limit(String instanceType) {
        return instanceLimits.getOrDefault(instanceType, 0);
    }

    public int inUse(String instanceType) {
        return instancesInUse.getOrDefault(instanceType, 0);
    }

    TeamState taking(String instanceType, int count, int accelerators) {
        var used = new java.util.HashMap<>(instancesInUse);
        used.merge(instanceType, count, Integer::sum);
        return new TeamState(team, instanceLimits, used, maxAccelerators, acceleratorsInUse + accelerators,
                maxConcurrentJobs, jobsInUse + 1, strictFifo);
    }
}
