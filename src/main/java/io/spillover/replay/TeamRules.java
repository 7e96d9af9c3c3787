package io.spillover.replay;

import io.spillover.placement.TeamState;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a team is held to in a replay, as the service holds it: its quota per instance type (a type not listed is
 * not allowed), its caps on accelerators and concurrent jobs, whether its jobs start strictly in queue order, and
 * its weight in fair share.
 *
 * @param maxAccelerators   null for no cap
 * @param maxConcurrentJobs null for no cap
 */
public record TeamRules(Map<String, Integer> instanceLimits, Integer maxAccelerators, Integer maxConcurrentJobs,
                        boolean strictFifo, int weight) {

    public TeamRules {
        instanceLimits = Map.copyOf(instanceLimits);
        if (weight < 1) {
            throw new IllegalArgumentException("a team's weight is at least 1");
        }
        if (instanceLimits.values().stream().anyMatch(limit -> limit < 0)) {
            throw new IllegalArgumentException("an instance limit cannot be negative");
        }
    }

    /** The same quota on every type, no caps, best-effort FIFO, weight 1: the benchmark's teams. */
    public static TeamRules quota(Map<String, Integer> instanceLimits) {
        return new TeamRules(instanceLimits, null, null, false, 1);
    }

    public int limit(String instanceType) {
        return instanceLimits.getOrDefault(instanceType, 0);
    }

    /** The team as the placement core sees it, holding what it holds now. */
    public TeamState state(String team, Map<String, Integer> instancesInUse, int acceleratorsInUse, int jobsInUse) {
        return new TeamState(team, instanceLimits, instancesInUse, maxAccelerators, acceleratorsInUse,
                maxConcurrentJobs, jobsInUse, strictFifo);
    }

    public TeamRules withLimit(String instanceType, int limit) {
        var limits = new TreeMap<>(instanceLimits);
        limits.put(instanceType, limit);
        return new TeamRules(limits, maxAccelerators, maxConcurrentJobs, strictFifo, weight);
    }

    public TeamRules withWeight(int newWeight) {
        return new TeamRules(instanceLimits, maxAccelerators, maxConcurrentJobs, strictFifo, newWeight);
    }

    public TeamRules withCaps(Integer accelerators, Integer concurrentJobs) {
        return new TeamRules(instanceLimits, accelerators, concurrentJobs, strictFifo, weight);
    }
}
