package io.spillover.replay;

import io.spillover.placement.BorrowLimit;
import io.spillover.placement.SharingStrategy;
import io.spillover.placement.TeamState;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a team is held to in a replay, as the service holds it: its quota per instance type (a type not listed is
 * not allowed), its caps on accelerators and concurrent jobs, whether its jobs start strictly in queue order, and
 * its weight in fair share, and how it lends and borrows its guarantee (the quota) when the replayed policy shares.
 *
 * @param maxAccelerators   null for no cap
 * @param maxConcurrentJobs null for no cap
 */
public record TeamRules(Map<String, Integer> instanceLimits, Integer maxAccelerators, Integer maxConcurrentJobs,
                        boolean strictFifo, int weight, SharingStrategy sharing, BorrowLimit borrowLimit) {

    /** A team that neither lends nor borrows. */
    public TeamRules(Map<String, Integer> instanceLimits, Integer maxAccelerators, Integer maxConcurrentJobs,
                     boolean strictFifo, int weight) {
        this(instanceLimits, maxAccelerators, maxConcurrentJobs, strictFifo, weight, SharingStrategy.RESERVE,
                BorrowLimit.UNLIMITED);
    }

    public TeamRules {
        java.util.Objects.requireNonNull(sharing, "sharing");
        java.util.Objects.requireNonNull(borrowLimit, "borrowLimit");
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
                maxConcurrentJobs, jobsInUse, strictFifo, sharing, borrowLimit);
    }

    public TeamRules withLimit(String instanceType, int limit) {
        var limits = new TreeMap<>(instanceLimits);
        limits.put(instanceType, limit);
        return new TeamRules(limits, maxAccelerators, maxConcurrentJobs, strictFifo, weight, sharing, borrowLimit);
    }

    public TeamRules withWeight(int newWeight) {
        return new TeamRules(instanceLimits, maxAccelerators, maxConcurrentJobs, strictFifo, newWeight, sharing,
                borrowLimit);
    }

    public TeamRules withCaps(Integer accelerators, Integer concurrentJobs) {
        return new TeamRules(instanceLimits, accelerators, concurrentJobs, strictFifo, weight, sharing, borrowLimit);
    }

    public TeamRules withSharing(SharingStrategy strategy, BorrowLimit limit) {
        return new TeamRules(instanceLimits, maxAccelerators, maxConcurrentJobs, strictFifo, weight, strategy, limit);
    }

    /** The same rules with every type's limit replaced: the caps lifted to these. */
    public TeamRules withLimits(Map<String, Integer> limits) {
        return new TeamRules(limits, maxAccelerators, maxConcurrentJobs, strictFifo, weight, sharing, borrowLimit);
    }
}
