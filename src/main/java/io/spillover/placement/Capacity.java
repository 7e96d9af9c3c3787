package io.spillover.placement;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The capacity a scheduling cycle works with: offerings, plans and teams as read in one snapshot.
 * Mutable so that a cycle can place several jobs in turn: {@link #take} books what a selection uses, and
 * the next decision sees it. Not thread-safe; one cycle owns one instance.
 */
public final class Capacity {

    private final Map<OfferingKey, OfferingState> offerings = new HashMap<>();
    private final Map<String, PlanState> plans = new HashMap<>();
    private final Map<String, TeamState> teams = new HashMap<>();
    private final Map<OfferingKey, Hold> holds = new HashMap<>();

    /** Free instances of an offering kept for one waiting job, so that smaller jobs do not take them first. */
    private record Hold(int instances, String reason) {
    }

    public Capacity(Collection<OfferingState> offerings, Collection<PlanState> plans, Collection<TeamState> teams) {
        offerings.forEach(o -> this.offerings.put(o.key(), o));
        plans.forEach(p -> this.plans.put(p.name(), p));
        teams.forEach(t -> this.teams.put(t.team(), t));
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
        Hold hold = holds.get(key);
        return Math.max(0, offering.available() - (hold == null ? 0 : hold.instances()));
    }

    /** Why some of the offering's free instances are held, in words, when they are. */
    public Optional<String> hold(OfferingKey key) {
        return Optional.ofNullable(holds.get(key)).map(Hold::reason);
    }

    /**
     * Holds up to {@code instances} of the offering's free instances for one waiting job; they stay held for
     * the rest of the cycle. At most one hold per offering.
     *
     * @return how many were held
     */
    int hold(OfferingKey key, int instances, String reason) {
        if (holds.containsKey(key)) {
            throw new IllegalStateException(key.describe() + " already holds instances");
        }
        int held = Math.min(instances, free(key));
        holds.put(key, new Hold(held, held + " held for " + reason));
        return held;
    }

    boolean holds(OfferingKey key) {
        return holds.containsKey(key);
    }

    /**
     * A cheap necessary condition for the request to fit now: some entry's offering has its instances free and
     * the team's limit for the type covers them. A request that fails it is refused by {@link Placement} and
     * books nothing, so a queue pass without it decides the same for every other job, except that it can
     * neither hold instances nor hold back a strict-FIFO team's later jobs.
     */
    public boolean anyEntryCouldFit(PlacementRequest request) {
        Optional<TeamState> team = team(request.team());
        if (team.isEmpty()) {
            return true; // let the placement core say why
        }
        for (PreferenceEntry entry : request.preferences().entries()) {
            int count = entry.instanceCount();
            Optional<OfferingState> offering = offering(entry.offering());
            if (offering.isPresent() && offering.get().available() >= count
                    && team.get().inUse(entry.instanceType()) + count <= team.get().limit(entry.instanceType())) {
                return true;
            }
        }
        return false;
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
        teams.put(team, state.taking(entry.instanceType(), entry.instanceCount(),
                entry.instanceCount() * acceleratorsPerInstance));
    }
}
