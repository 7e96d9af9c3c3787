package io.spillover.replay;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The goals that compare teams, judged over the fleet and fleets near it, not on one replay: the fleets one instance
 * away ({@link #around}), or the same fleet with other draws of the jobs' lists ({@link #draws}).
 *
 * <p>On an overloaded fleet a team's mean wait is set by the path the queue happens to take for weeks: one instance
 * more or less of one type moves a team's mean by hours under hard quotas alone, and moves which teams a single
 * replay calls "worse off for lending". Lending's cost to a team is what remains when that chance is averaged out:
 * the team's mean wait over the nearby fleets shared, against its mean wait over the same fleets with hard quotas.
 * Every fleet is replayed under both, on the same jobs, so each comparison is paired; each fleet counts once.
 *
 * @param fleets    what each fleet changes from the fleet file, the fleet itself first ("as it is")
 * @param shared    per team, its mean wait in seconds under {@link Goals#POLICY}, averaged over the fleets
 * @param hard      the same under {@link Goals#WITHOUT_SHARING}
 * @param worseOff  the teams whose averaged wait shared exceeds their averaged wait with hard quotas by more than
 *                  the goal's slack (the larger of 5 % and 2 min)
 * @param worseOffIn per team, in how many of the fleets a single replay calls it worse off
 * @param changes   per team, its mean wait shared over its mean wait with hard quotas, minus one, in each fleet in
 *                  {@code fleets}' order (NaN where it did not wait with hard quotas): how far one replay strays
 * @param standardErrors per team, the standard error in seconds of its averaged difference (its mean wait shared
 *                  minus its mean wait with hard quotas, one difference per fleet): how far the average itself may be
 *                  from what lending does to the team, were the fleets draws of the same chance
 * @param fairnessShared Jain's index over per-team mean slowdown under the default policy, averaged over the fleets
 * @param fairnessHard   the same with hard quotas
 * @param fairnessScript the better polling script's index in each fleet, averaged; null when no script was replayed
 */
public record NearbyFleets(List<String> fleets, Map<String, Double> shared, Map<String, Double> hard,
                           List<String> worseOff, Map<String, Integer> worseOffIn,
                           Map<String, List<Double>> changes, Map<String, Double> standardErrors,
                           double fairnessShared, double fairnessHard, Double fairnessScript) {

    /** A fleet to replay beside the fleet file's, and what it changes. */
    public record Nearby(String change, ReplayConfig config) {
    }

    /**
     * The fleets one on-demand instance away from {@code config}'s: each offering with one instance fewer and one
     * more (the team quotas follow, as the fleet file's quota share has them), the offering in its file's order.
     */
    public static List<Nearby> around(ReplayConfig config) {
        var nearby = new ArrayList<Nearby>();
        for (int i = 0; i < config.onDemand().size(); i++) {
            ReplayConfig.OnDemand offering = config.onDemand().get(i);
            String name = offering.instanceType() + " in " + offering.region();
            if (offering.instances() > 1) {
                nearby.add(new Nearby(name + " " + (offering.instances() - 1) + " (−1)", config.withInstances(i, -1)));
            }
            nearby.add(new Nearby(name + " " + (offering.instances() + 1) + " (+1)", config.withInstances(i, 1)));
        }
        return nearby;
    }

    /**
     * The same fleet with what the replay draws rather than reads from the trace drawn anew: each job's list (its
     * first choice by the types' weights) and whether it opts in to preemption, from the {@code count} seeds after
     * {@code config}'s. One instance more or less may leave most of a replay's path as it was (on a fleet with room
     * to spare, the same few jobs decide a team's mean on every nearby fleet); other draws give other paths.
     */
    public static List<Nearby> draws(ReplayConfig config, int count) {
        var nearby = new ArrayList<Nearby>();
        for (long seed = config.seed() + 1; seed <= config.seed() + count; seed++) {
            nearby.add(new Nearby("lists and preemptible jobs drawn from seed " + seed, config.withSeed(seed)));
        }
        return nearby;
    }

    /**
     * @param replays each fleet's reports, the key what it changes; each must hold {@link Goals#POLICY} and
     *                {@link Goals#WITHOUT_SHARING}
     */
    public static NearbyFleets judge(Map<String, List<PolicyReport>> replays) {
        if (replays.isEmpty()) {
            throw new IllegalArgumentException("no fleet to judge over");
        }
        var shared = new TreeMap<String, Double>();
        var hard = new TreeMap<String, Double>();
        var worseOffIn = new TreeMap<String, Integer>();
        var changes = new TreeMap<String, List<Double>>();
        var differences = new TreeMap<String, List<Double>>();
        double fairnessShared = 0;
        double fairnessHard = 0;
        double fairnessScript = 0;
        boolean scripts = true;
        for (Map.Entry<String, List<PolicyReport>> replay : replays.entrySet()) {
            PolicyReport lent = named(replay.getValue(), Goals.POLICY, replay.getKey());
            PolicyReport capped = named(replay.getValue(), Goals.WITHOUT_SHARING, replay.getKey());
            capped.meanWaitByTeamSeconds().forEach((team, wait) -> hard.merge(team, wait, Double::sum));
            lent.meanWaitByTeamSeconds().forEach((team, wait) -> {
                shared.merge(team, wait, Double::sum);
                worseOffIn.putIfAbsent(team, 0);
                double before = capped.meanWaitByTeamSeconds().getOrDefault(team, 0.0);
                changes.computeIfAbsent(team, t -> new ArrayList<>()).add(before == 0 ? Double.NaN : wait / before - 1);
                differences.computeIfAbsent(team, t -> new ArrayList<>()).add(wait - before);
            });
            Goals.worseOff(lent, capped).forEach(team -> worseOffIn.merge(team, 1, Integer::sum));
            fairnessShared += lent.fairness();
            fairnessHard += capped.fairness();
            Optional<Double> script = replay.getValue().stream()
                    .filter(r -> r.policy().startsWith("polling-") && !r.policy().endsWith(Goals.FREE_FOR_ALL))
                    .map(PolicyReport::fairness).max(Double::compare);
            scripts &= script.isPresent();
            fairnessScript += script.orElse(0.0);
        }
        int n = replays.size();
        shared.replaceAll((team, sum) -> sum / n);
        hard.replaceAll((team, sum) -> sum / n);
        var worseOff = shared.entrySet().stream()
                .filter(e -> Goals.worse(e.getValue(), hard.getOrDefault(e.getKey(), 0.0)))
                .map(Map.Entry::getKey).toList();
        changes.replaceAll((team, list) -> List.copyOf(list));
        var standardErrors = new TreeMap<String, Double>();
        differences.forEach((team, list) -> standardErrors.put(team, standardError(list)));
        return new NearbyFleets(List.copyOf(replays.keySet()), shared, hard, worseOff, worseOffIn, changes,
                standardErrors, fairnessShared / n, fairnessHard / n, scripts ? fairnessScript / n : null);
    }

    /** The sample standard deviation over the square root of the count; NaN for fewer than two. */
    static double standardError(List<Double> values) {
        int n = values.size();
        if (n < 2) {
            return Double.NaN;
        }
        double mean = values.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
        double squares = values.stream().mapToDouble(v -> (v - mean) * (v - mean)).sum();
        return Math.sqrt(squares / (n - 1)) / Math.sqrt(n);
    }

    private static PolicyReport named(List<PolicyReport> reports, String policy, String fleet) {
        return reports.stream().filter(r -> r.policy().equals(policy)).findFirst().orElseThrow(
                () -> new IllegalArgumentException("the fleet " + fleet + " was not replayed under " + policy));
    }
}
