package io.spillover.placement;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A team's quota and what it uses now.
 *
 * <p>A team's per-type limit is its <b>guarantee</b> (SPEC §8.1): what it may always hold, and what it gets back
 * from borrowers within the reclaim bound when it needs it. With a {@link SharingStrategy} that borrows, the team may
 * hold more, up to its {@link #ceiling}, on capacity that no team below its guarantee needs; what it holds beyond
 * its guarantee is {@link #borrowed}. The caps on accelerators and concurrent jobs are hard: borrowing never passes
 * them.
 *
 * @param instanceLimits    the guarantee: instances per instance type; a type not listed is not guaranteed (and,
 *                          unless the team borrows it, not allowed)
 * @param instancesInUse    instances held now per type, borrowed ones included
 * @param maxAccelerators   cap on accelerators in use, null for none
 * @param maxConcurrentJobs cap on jobs holding capacity, null for none
 * @param strictFifo        whether the team's jobs start strictly in queue order
 * @param sharing           whether the team lends its idle guarantee and whether its jobs borrow
 * @param borrowLimit       how far beyond its guarantee the team may go, when its strategy borrows
 */
public record TeamState(String team, Map<String, Integer> instanceLimits, Map<String, Integer> instancesInUse,
                        Integer maxAccelerators, int acceleratorsInUse,
                        Integer maxConcurrentJobs, int jobsInUse, boolean strictFifo,
                        SharingStrategy sharing, BorrowLimit borrowLimit) {

    public TeamState {
        Objects.requireNonNull(team, "team");
        Objects.requireNonNull(sharing, "sharing");
        Objects.requireNonNull(borrowLimit, "borrowLimit");
        instanceLimits = Map.copyOf(instanceLimits);
        instancesInUse = Map.copyOf(instancesInUse);
    }

    /** A team that neither lends nor borrows: its limits are hard, as before sharing. */
    public TeamState(String team, Map<String, Integer> instanceLimits, Map<String, Integer> instancesInUse,
                     Integer maxAccelerators, int acceleratorsInUse, Integer maxConcurrentJobs, int jobsInUse,
                     boolean strictFifo) {
        this(team, instanceLimits, instancesInUse, maxAccelerators, acceleratorsInUse, maxConcurrentJobs, jobsInUse,
                strictFifo, SharingStrategy.RESERVE, BorrowLimit.UNLIMITED);
    }

    /** The team's guarantee for the type: {@link #guarantee}. */
    public int limit(String instanceType) {
        return instanceLimits.getOrDefault(instanceType, 0);
    }

    /** Instances of the type the team may always hold, and gets back from borrowers when it needs them. */
    public int guarantee(String instanceType) {
        return limit(instanceType);
    }

    public int inUse(String instanceType) {
        return instancesInUse.getOrDefault(instanceType, 0);
    }

    /** Instances of the type the team may hold beyond its guarantee: 0 unless its strategy borrows. */
    public int mayBorrow(String instanceType) {
        return sharing.borrows() ? borrowLimit.beyond(instanceType, guarantee(instanceType)) : 0;
    }

    /** The most the team may hold of the type: its guarantee plus what it may borrow. */
    public int ceiling(String instanceType) {
        return (int) Math.min(Integer.MAX_VALUE, (long) guarantee(instanceType) + mayBorrow(instanceType));
    }

    /** Instances of the type held beyond the guarantee now: what other teams may reclaim. */
    public int borrowed(String instanceType) {
        return Math.max(0, inUse(instanceType) - guarantee(instanceType));
    }

    /** Instances of the type the guarantee allows and the team does not hold now. */
    public int idle(String instanceType) {
        return Math.max(0, guarantee(instanceType) - inUse(instanceType));
    }

    /** The same team holding other amounts (a forecast's or a replay's step). */
    public TeamState withUse(Map<String, Integer> instances, int accelerators, int jobs) {
        return new TeamState(team, instanceLimits, instances, maxAccelerators, accelerators, maxConcurrentJobs, jobs,
                strictFifo, sharing, borrowLimit);
    }

    /** The same team with another sharing strategy and borrow limit. */
    public TeamState withSharing(SharingStrategy strategy, BorrowLimit limit) {
        return new TeamState(team, instanceLimits, instancesInUse, maxAccelerators, acceleratorsInUse,
                maxConcurrentJobs, jobsInUse, strictFifo, strategy, limit);
    }

    TeamState taking(String instanceType, int count, int accelerators) {
        var used = new HashMap<>(instancesInUse);
        used.merge(instanceType, count, Integer::sum);
        return withUse(used, acceleratorsInUse + accelerators, jobsInUse + 1);
    }
}
