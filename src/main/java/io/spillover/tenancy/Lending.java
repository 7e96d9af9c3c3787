package io.spillover.tenancy;

import io.spillover.placement.TeamState;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Who lends what borrowers hold. Of a type, the instances teams hold beyond their guarantees stand on the idle
 * guarantees of the teams that lend; when those idle guarantees add up to more than is borrowed, each lender is
 * counted its part in proportion to what it leaves idle (largest remainders, then team names, take the rounding).
 * Borrowed instances beyond all idle guarantees came from capacity nobody is guaranteed, and nobody lent them.
 */
final class Lending {

    private Lending() {
    }

    /** Per team, per type, the instances it lends now; a team lending nothing of a type has no entry for it. */
    static Map<String, Map<String, Integer>> lent(Map<String, TeamState> teams) {
        var types = new TreeSet<String>();
        teams.values().forEach(t -> types.addAll(t.instanceLimits().keySet()));
        var lent = new HashMap<String, Map<String, Integer>>();
        for (String type : types) {
            int borrowed = 0;
            var idle = new TreeMap<String, Integer>();
            for (TeamState team : teams.values()) {
                borrowed += team.borrowed(type);
                if (team.idle(type) > 0 && team.sharing().lends()) {
                    idle.put(team.team(), team.idle(type));
                }
            }
            share(borrowed, idle).forEach((team, n) -> lent.computeIfAbsent(team, t -> new TreeMap<>()).put(type, n));
        }
        return lent;
    }

    /** {@code borrowed} spread over the lenders in proportion to their idle instances, each at most its own. */
    static Map<String, Integer> share(int borrowed, Map<String, Integer> idle) {
        int total = idle.values().stream().mapToInt(Integer::intValue).sum();
        var parts = new TreeMap<String, Integer>();
        if (borrowed <= 0 || total == 0) {
            return parts;
        }
        if (borrowed >= total) {
            parts.putAll(idle);
            return parts;
        }
        record Remainder(String team, long rest) {
        }
        var remainders = new ArrayList<Remainder>();
        int given = 0;
        for (var lender : idle.entrySet()) {
            long scaled = (long) borrowed * lender.getValue();
            int part = (int) (scaled / total);
            parts.put(lender.getKey(), part);
            given += part;
            remainders.add(new Remainder(lender.getKey(), scaled % total));
        }
        remainders.sort(Comparator.comparingLong(Remainder::rest).reversed().thenComparing(Remainder::team));
        for (int i = 0; i < borrowed - given; i++) {
            parts.merge(remainders.get(i).team(), 1, Integer::sum);
        }
        parts.values().removeIf(n -> n == 0);
        return parts;
    }

    /** Per type, the instances the team holds beyond its guarantee; none of a type it holds within it. */
    static Map<String, Integer> borrowed(TeamState team) {
        var borrowed = new TreeMap<String, Integer>();
        team.instancesInUse().keySet().forEach(type -> {
            if (team.borrowed(type) > 0) {
                borrowed.put(type, team.borrowed(type));
            }
        });
        return borrowed;
    }
}
