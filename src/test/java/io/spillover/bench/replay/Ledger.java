package io.spillover.bench.replay;

import io.spillover.placement.Capacity;
import io.spillover.placement.OfferingKey;
import io.spillover.placement.OfferingState;
import io.spillover.placement.PreferenceEntry;
import io.spillover.placement.TeamState;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * What is in use in the replayed fleet: the simulation's stand-in for the service's database. Each
 * scheduling step takes a {@link #snapshot} for the placement core, as the service reads one, and writes
 * back only what it starts; job ends give instances back.
 */
final class Ledger {

    private final Fleet fleet;
    private final Map<OfferingKey, Integer> inUse = new HashMap<>();
    private final Map<String, Map<String, Integer>> teamInUse = new TreeMap<>();
    private final Map<String, Integer> teamAccelerators = new HashMap<>();
    private final Map<String, Integer> teamJobs = new HashMap<>();

    Ledger(Fleet fleet, Iterable<String> teams) {
        this.fleet = fleet;
        teams.forEach(team -> teamInUse.put(team, new HashMap<>()));
    }

    Capacity snapshot() {
        var offerings = new ArrayList<OfferingState>();
        for (OfferingKey key : fleet.offerings()) {
            offerings.add(OfferingState.of(key, fleet.total(key), inUse.getOrDefault(key, 0)));
        }
        var teams = new ArrayList<TeamState>();
        teamInUse.forEach((team, used) -> teams.add(new TeamState(team, fleet.quotas(), used, null,
                teamAccelerators.getOrDefault(team, 0), null, teamJobs.getOrDefault(team, 0), false)));
        return new Capacity(offerings, fleet.plans(), teams);
    }

    void take(String team, PreferenceEntry entry) {
        change(team, entry, 1);
    }

    void release(String team, PreferenceEntry entry) {
        change(team, entry, -1);
    }

    private void change(String team, PreferenceEntry entry, int sign) {
        Map<String, Integer> used = teamInUse.get(team);
        if (used == null) {
            throw new IllegalArgumentException("unknown team " + team);
        }
        int count = sign * entry.instanceCount();
        int now = inUse.merge(entry.offering(), count, Integer::sum);
        if (now < 0 || now > fleet.total(entry.offering())) {
            throw new IllegalStateException(entry.offering().describe() + " would have " + now + " in use");
        }
        used.merge(entry.instanceType(), count, Integer::sum);
        teamAccelerators.merge(team, count * fleet.acceleratorsPerInstance(entry.instanceType()), Integer::sum);
        teamJobs.merge(team, sign, Integer::sum);
    }

    /** Whether every instance is back: true at the end of a replay that lost nothing. */
    boolean idle() {
        return inUse.values().stream().allMatch(n -> n == 0) && teamJobs.values().stream().allMatch(n -> n == 0);
    }
}
