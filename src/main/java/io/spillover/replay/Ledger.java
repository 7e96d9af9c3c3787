package io.spillover.replay;

import io.spillover.placement.Capacity;
import io.spillover.placement.OfferingKey;
import io.spillover.placement.OfferingState;
import io.spillover.placement.PreferenceEntry;
import io.spillover.placement.RunningPlacement;
import io.spillover.placement.SharingStrategy;
import io.spillover.placement.TeamShare;
import io.spillover.placement.TeamState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
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
    private final Map<String, Double> usage = new HashMap<>();
    private final Map<String, Instant> usageAsOf = new HashMap<>();
    private final Map<String, Double> charged = new HashMap<>();

    Ledger(Fleet fleet, Iterable<String> teams) {
        this.fleet = fleet;
        teams.forEach(team -> {
            fleet.rules(team); // refuses a team the fleet does not know
            teamInUse.put(team, new HashMap<>());
        });
    }

    Capacity snapshot() {
        return snapshot(List.of(), true);
    }

    /**
     * @param running what runs now, for the reclaims of a policy that shares
     * @param sharing false: every team as one that neither lends nor borrows, as before sharing
     */
    Capacity snapshot(Collection<RunningPlacement> running, boolean sharing) {
        var offerings = new ArrayList<OfferingState>();
        for (OfferingKey key : fleet.offerings()) {
            offerings.add(OfferingState.of(key, fleet.total(key), inUse.getOrDefault(key, 0)));
        }
        var teams = new ArrayList<TeamState>();
        teamInUse.forEach((team, used) -> {
            TeamState state = fleet.rules(team).state(team, used, teamAccelerators.getOrDefault(team, 0),
                    teamJobs.getOrDefault(team, 0));
            teams.add(sharing ? state : state.withSharing(SharingStrategy.RESERVE, state.borrowLimit()));
        });
        return new Capacity(offerings, fleet.plans(), teams, running);
    }

    /** Each team's weight and the decayed usage of its ended runs at {@code now}, for fair share. */
    Map<String, TeamShare> shares(Instant now, Duration halfLife) {
        var shares = new HashMap<String, TeamShare>();
        for (String team : teamInUse.keySet()) {
            double used = usage.containsKey(team) ? TeamShare.decay(usage.get(team), usageAsOf.get(team), now, halfLife) : 0;
            shares.put(team, new TeamShare(fleet.rules(team).weight(),
                    Math.max(0, used + charged.getOrDefault(team, 0.0))));
        }
        return shares;
    }

    /** What in use per offering, for {@link PlanWatch}. */
    Map<OfferingKey, Integer> inUse() {
        return inUse;
    }

    void take(String team, PreferenceEntry entry) {
        change(team, entry, 1);
    }

    /** A run starts and is charged to its team until it ends ({@link TeamShare#charge}). */
    void take(String team, PreferenceEntry entry, double charge) {
        take(team, entry);
        charged.merge(team, charge, Double::sum);
    }

    /**
     * A run from before the replay holds its instances from the start, even past a total that a change made
     * smaller than what it holds (as the service lets capacity shrink below use): nothing new fits there until
     * use falls below the total again.
     */
    void hold(String team, PreferenceEntry entry) {
        change(team, entry, 1, false);
    }

    void release(String team, PreferenceEntry entry) {
        change(team, entry, -1);
    }

    /** A run ends: its instances come back and its usage joins the team's, decayed from now on. */
    void release(String team, PreferenceEntry entry, Instant start, Instant end, Duration halfLife, double charge) {
        release(team, entry);
        charged.merge(team, -charge, Double::sum);
        int units = entry.instanceCount() * fleet.acceleratorsPerInstance(entry.instanceType());
        double before = usage.containsKey(team) ? TeamShare.decay(usage.get(team), usageAsOf.get(team), end, halfLife) : 0;
        usage.put(team, before + TeamShare.ofRun(units, start, end, halfLife));
        usageAsOf.put(team, end);
    }

    private void change(String team, PreferenceEntry entry, int sign) {
        change(team, entry, sign, true);
    }

    private void change(String team, PreferenceEntry entry, int sign, boolean withinTotal) {
        Map<String, Integer> used = teamInUse.get(team);
        if (used == null) {
            throw new IllegalArgumentException("unknown team " + team);
        }
        int count = sign * entry.instanceCount();
        int now = inUse.merge(entry.offering(), count, Integer::sum);
        if (now < 0 || withinTotal && sign > 0 && now > fleet.total(entry.offering())) {
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
