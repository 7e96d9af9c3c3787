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

    public Collection<OfferingState> offerings() {
        return offerings.values();
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
