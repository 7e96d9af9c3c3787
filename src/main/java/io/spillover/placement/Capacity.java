package io.spillover.placement;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The capacity a scheduling cycle works with: offerings, plans, teams and running placements as read in one
 * snapshot. Mutable so that a cycle can place several jobs in turn: {@link #take} books what a selection uses, and
 * the next decision sees it. Not thread-safe; one cycle owns one instance.
 *
 * <p>The running placements are what a reclaim chooses from (see {@link QueuePass}); they must agree with the
 * teams' use: every instance a team holds is in one of its placements. A snapshot without them can lend nothing
 * back, so the service and the replay hand them in whenever sharing is on.
 */
public final class Capacity {

    private final Map<OfferingKey, OfferingState> offerings = new HashMap<>();
    private final Map<String, PlanState> plans = new HashMap<>();
    private final Map<String, TeamState> teams = new HashMap<>();
    private final Map<OfferingKey, List<Hold>> holds = new HashMap<>();
    private final Map<OfferingKey, List<RunningPlacement>> running = new HashMap<>();
    /** {@link #reclaimable} per offering, until the next booking changes a team's use. */
    private final Map<OfferingKey, Integer> reclaimable = new HashMap<>();

    /** Free instances of an offering kept for one waiting job, so that other jobs do not take them first. */
    private record Hold(int instances, String reason) {
    }

    /** A snapshot with nothing running that a reclaim could take back. */
    public Capacity(Collection<OfferingState> offerings, Collection<PlanState> plans, Collection<TeamState> teams) {
        this(offerings, plans, teams, List.of());
    }

    /** @param running every placement holding instances now (starting, running or stopping) */
    public Capacity(Collection<OfferingState> offerings, Collection<PlanState> plans, Collection<TeamState> teams,
                    Collection<RunningPlacement> running) {
        offerings.forEach(o -> this.offerings.put(o.key(), o));
        plans.forEach(p -> this.plans.put(p.name(), p));
        teams.forEach(t -> this.teams.put(t.team(), t));
        running.forEach(r -> this.running.computeIfAbsent(r.offering(), k -> new ArrayList<>()).add(r));
    }

    public Optional<OfferingState> offering(OfferingKey key) {
        return Optional.ofNullable(offerings.get(key));
    }

    public Optional<PlanState> plan(String name) {
        return Optional.ofNullable(plans.get(name));
    }

    public Optional<TeamState> team(String team) {
        return Optional.ofNullable(teams.get(team));
    }

    /** Instances of the offering that a job may take now: its free ones less those held for another job. */
    public int free(OfferingKey key) {
        OfferingState offering = offerings.get(key);
        if (offering == null) {
            return 0;
        }
        List<Hold> held = holds.get(key);
        return Math.max(0, offering.available() - (held == null ? 0 : held.stream().mapToInt(Hold::instances).sum()));
    }

    /** Why some of the offering's free instances are held, in words, when they are. */
    public Optional<String> hold(OfferingKey key) {
        return Optional.ofNullable(holds.get(key)).map(h -> h.stream().map(Hold::reason)
                .collect(Collectors.joining("; ")));
    }

    /**
     * Holds up to {@code instances} of the offering's free instances for one waiting job; they stay held for
     * the rest of the cycle. Holds of several jobs on one offering add up.
     *
     * @return how many were held
     */
    int hold(OfferingKey key, int instances, String reason) {
        int held = Math.min(instances, free(key));
        if (held > 0) {
            holds.computeIfAbsent(key, k -> new ArrayList<>()).add(new Hold(held, held + " held for " + reason));
        }
        return held;
    }

    /**
     * Counts {@code instances} of the type in the team's use for the rest of the cycle, without taking any: room in
     * its guarantee kept for one of its waiting jobs (in-team preemption), which no teammate may take meanwhile.
     */
    void reserve(String team, String instanceType, int instances) {
        TeamState state = teams.get(team);
        if (state == null || instances <= 0) {
            return;
        }
        var used = new HashMap<>(state.instancesInUse());
        used.merge(instanceType, instances, Integer::sum);
        teams.put(team, state.withUse(used, state.acceleratorsInUse(), state.jobsInUse()));
        reclaimable.clear();
    }

    boolean holds(OfferingKey key) {
        return holds.containsKey(key);
    }

    /**
     * A cheap necessary condition for the request to fit now or to claim instances from borrowers: some entry's
     * offering has its instances free and the team's ceiling (its guarantee, plus what it may borrow) covers them,
     * or the entry is within the team's guarantee and the offering's free and {@link #reclaimable} instances cover
     * it. A request that fails it is refused by {@link Placement}, claims nothing and books nothing, so a queue pass
     * without it decides the same for every other job, except that it can neither hold instances nor hold back a
     * strict-FIFO team's later jobs.
     */
    public boolean anyEntryCouldFit(PlacementRequest request) {
        Optional<TeamState> team = team(request.team());
        if (team.isEmpty()) {
            return true; // let the placement core say why
        }
        for (PreferenceEntry entry : request.preferences().entries()) {
            int count = entry.instanceCount();
            Optional<OfferingState> offering = offering(entry.offering());
            if (offering.isEmpty()) {
                continue;
            }
            TeamState state = team.get();
            int after = state.inUse(entry.instanceType()) + count;
            if (offering.get().available() >= count && after <= state.ceiling(entry.instanceType())) {
                return true;
            }
            if (after <= state.guarantee(entry.instanceType()) && !running.isEmpty()
                    && offering.get().available() + reclaimable(entry.offering()) >= count) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether the request's team holds preemptible placements on an offering the request lists: with in-team
     * preemption ({@link SharingPolicy#shorterFirst}) the job may take theirs though nothing is free.
     */
    public boolean teamHoldsPreemptible(PlacementRequest request) {
        for (PreferenceEntry entry : request.preferences().entries()) {
            for (RunningPlacement placement : runningOn(entry.offering())) {
                if (placement.preemptible() && !placement.stopping() && placement.team().equals(request.team())) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Instances of the offering held by preemptible placements not being stopped: what teammates may give way. */
    public int preemptibleOn(OfferingKey key) {
        int instances = 0;
        for (RunningPlacement placement : runningOn(key)) {
            if (placement.preemptible() && !placement.stopping()) {
                instances += placement.instances();
            }
        }
        return instances;
    }

    /** Every placement holding instances at the snapshot. */
    public List<RunningPlacement> running() {
        return running.values().stream().flatMap(List::stream).toList();
    }

    /** The placements holding instances of the offering at the snapshot. */
    public List<RunningPlacement> runningOn(OfferingKey key) {
        return running.getOrDefault(key, List.of());
    }

    /**
     * Instances of the offering a team below its guarantee may get back from borrowers: those being stopped, and per
     * team holding more of the type than its guarantee, what it holds on this offering in placements that borrowed or
     * are preemptible, at most its excess over its guarantee once its placements being stopped have given theirs
     * back. Bounded borrowers count: they end within the borrow horizon.
     */
    public int reclaimable(OfferingKey key) {
        Integer known = reclaimable.get(key);
        if (known == null) {
            known = reclaimableNow(key);
            reclaimable.put(key, known);
        }
        return known;
    }

    private int reclaimableNow(OfferingKey key) {
        int total = 0;
        var byTeam = new HashMap<String, Integer>();
        for (RunningPlacement placement : runningOn(key)) {
            if (placement.stopping()) {
                total += placement.instances();
            } else if (placement.borrowed() || placement.preemptible()) {
                byTeam.merge(placement.team(), placement.instances(), Integer::sum);
            }
        }
        for (Map.Entry<String, Integer> held : byTeam.entrySet()) {
            total += Math.min(excessBeyondStopping(held.getKey(), key.instanceType()), held.getValue());
        }
        return total;
    }

    /**
     * What the team holds of the type beyond its guarantee once its placements being stopped have given their
     * instances back: a reclaim counts a stopping placement once, as coming back, not again as part of the excess.
     */
    public int excessBeyondStopping(String teamName, String instanceType) {
        int excess = team(teamName).map(t -> t.borrowed(instanceType)).orElse(0);
        if (excess == 0) {
            return 0;
        }
        for (Map.Entry<OfferingKey, List<RunningPlacement>> on : running.entrySet()) {
            if (on.getKey().instanceType().equals(instanceType)) {
                for (RunningPlacement placement : on.getValue()) {
                    if (placement.stopping() && placement.team().equals(teamName)) {
                        excess -= placement.instances();
                    }
                }
            }
        }
        return Math.max(0, excess);
    }

    /** Free instances of the type over all its offerings, less what is held. */
    public int freeOfType(String instanceType) {
        int free = 0;
        for (OfferingKey key : offerings.keySet()) {
            if (key.instanceType().equals(instanceType)) {
                free += free(key);
            }
        }
        return free;
    }

    /**
     * The idle guarantee of the type that teams which {@link SharingStrategy#RESERVE reserve} it keep for
     * themselves, other than {@code except}'s: borrowing must leave that much of the type free.
     */
    public int reservedIdle(String instanceType, String except) {
        int reserved = 0;
        for (TeamState team : teams.values()) {
            if (!team.sharing().lends() && !team.team().equals(except)) {
                reserved += team.idle(instanceType);
            }
        }
        return reserved;
    }

    public Collection<OfferingState> offerings() {
        return offerings.values();
    }

    public Collection<PlanState> plans() {
        return plans.values();
    }

    public Collection<TeamState> teams() {
        return teams.values();
    }

    /** Books a selection: the offering's use, the team's use of the type, its accelerators and one job. */
    public void take(String team, PreferenceEntry entry, int acceleratorsPerInstance) {
        OfferingKey key = entry.offering();
        OfferingState offering = offerings.get(key);
        TeamState state = teams.get(team);
        if (offering == null || state == null) {
            throw new IllegalArgumentException("nothing to take from: " + key + " for team " + team);
        }
        offerings.put(key, offering.taking(entry.instanceCount()));
        reclaimable.clear();
        teams.put(team, state.taking(entry.instanceType(), entry.instanceCount(),
                entry.instanceCount() * acceleratorsPerInstance));
    }
}
