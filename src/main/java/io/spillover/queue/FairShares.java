package io.spillover.queue;

import io.spillover.catalog.Catalog;
import io.spillover.catalog.InstanceType;
import io.spillover.placement.ExpectedRuns;
import io.spillover.placement.QueuePolicy;
import io.spillover.placement.TeamShare;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.springframework.stereotype.Component;

/**
 * Each team's fair share and expected run times, read from the jobs' history ({@link RunHistory}, a port the
 * jobs module implements) and the teams' weights ({@link TeamWeights}, tenancy's): the decayed usage of runs that
 * ended within ten half-lives (older ones count less than a thousandth), the charge of the runs going on now
 * ({@link TeamShare#charge}), and the median of the latest completed runs of each team and of each profile a
 * team submits with (once it has {@link #PROFILE_RUNS}). The history is read at most
 * every {@link #HISTORY_REFRESH}; what runs now is read on every call, so a start weighs at the next cycle.
 */
@Component
public class FairShares {

    static final Duration HISTORY_REFRESH = Duration.ofSeconds(30);
    /** How many of a team's latest completed runs its expected run time comes from. */
    public static final int RUNS_PER_TEAM = 100;
    /**
     * How many completed runs a profile needs before its median stands for its jobs; until then they are
     * expected to run as their team's typical run. Run times differ more between a team's profiles (a sweep
     * of short trials, a long pre-training) than within one.
     */
    static final int PROFILE_RUNS = 5;

    /**
     * @param shares  per team, weight and usage (ended runs decayed, running ones charged)
     * @param typical   per team, the median of its latest completed runs; absent when it has none
     * @param byProfile per team and profile, the median of the profile's latest completed runs, for profiles
     *                  with at least {@link #PROFILE_RUNS}
     * @param sweeps    what is known now of the sweeps of the jobs a cycle decides; empty outside a cycle
     */
    public record Snapshot(Instant at, QueuePolicy policy, Map<String, TeamShare> shares, Map<String, Duration> typical,
                           Map<String, Map<String, Duration>> byProfile, Duration platformTypical,
                           Map<UUID, ExpectedRuns.Sweep> sweeps) {

        /**
         * What a job is expected to run ({@link ExpectedRuns#expected}): its sweep's runs once members have run,
         * bounded by its maximum run time; else its maximum run time (its user's own word on this job), else the
         * median of its profile's runs in its team, else its team's median, else the platform's; null when none
         * is known.
         *
         * @param profile the profile the job was submitted with, null for none
         * @param hint    how long its user expects it to run, null for none: it stands where the maximum run time
         *                would, and bounds nothing
         * @param sweep   the sweep it belongs to, null for none
         */
        public Duration expectedRuntime(String team, String profile, Duration maxRuntime, Duration hint, UUID sweep) {
            return ExpectedRuns.expected(maxRuntime, hint, sweep == null ? ExpectedRuns.Sweep.NONE
                    : sweeps.getOrDefault(sweep, ExpectedRuns.Sweep.NONE), typical(team, profile));
        }

        /** As the scheduler ranks, with no hint. */
        public Duration expectedRuntime(String team, String profile, Duration maxRuntime, UUID sweep) {
            return expectedRuntime(team, profile, maxRuntime, null, sweep);
        }

        /**
         * The median of the profile's latest runs in the team once it has {@link #PROFILE_RUNS}, else the team's,
         * else the platform's; null when nothing has ended.
         */
        public Duration typical(String team, String profile) {
            Duration ofProfile = profile == null ? null : byProfile.getOrDefault(team, Map.of()).get(profile);
            return ofProfile != null ? ofProfile : typical.getOrDefault(team, platformTypical);
        }

        /** What a job is expected to run, its sweep left out. */
        public Duration expectedRuntime(String team, String profile, Duration maxRuntime) {
            return expectedRuntime(team, profile, maxRuntime, null);
        }

        /** The team's share of the platform's weight, and of the decayed usage. */
        public double targetShare(String team) {
            int total = shares.values().stream().mapToInt(TeamShare::weight).sum();
            return total == 0 ? 0 : (double) shares.getOrDefault(team, TeamShare.NEW_TEAM).weight() / total;
        }

        public double usageShare(String team) {
            double total = shares.values().stream().mapToDouble(TeamShare::usage).sum();
            return total == 0 ? 0 : shares.getOrDefault(team, TeamShare.NEW_TEAM).usage() / total;
        }
    }

    private record History(Instant readAt, Map<String, Double> endedUsage, Map<String, Duration> typical,
                           Map<String, Map<String, Duration>> byProfile, Duration platformTypical) {
    }

    private final RunHistory runs;
    private final TeamWeights weights;
    private final Catalog catalog;
    private final QueuePolicy policy;
    private final Clock clock;
    private volatile History history;

    FairShares(RunHistory runs, TeamWeights weights, Catalog catalog, QueueProperties properties, Clock clock) {
        this.runs = runs;
        this.weights = weights;
        this.catalog = catalog;
        this.policy = properties.policy();
        this.clock = clock;
    }

    public QueuePolicy policy() {
        return policy;
    }

    /**
     * What a scheduling cycle needs: the expected run times always (the history read at most every
     * {@link #HISTORY_REFRESH}, the sweeps of the cycle's jobs as they stand now), the shares only when fair share
     * orders the queue (they cost two reads a cycle, of the running jobs and the teams).
     *
     * @param sweeps the sweeps of the jobs the cycle decides
     */
    public Snapshot forCycle(Collection<UUID> sweeps) {
        Instant now = clock.instant();
        Map<UUID, ExpectedRuns.Sweep> known = runs.sweeps(sweeps, now);
        Snapshot read = policy.fairShare() ? read(now) : withoutShares(now);
        return new Snapshot(read.at(), policy, read.shares(), read.typical(), read.byProfile(), read.platformTypical(),
                known);
    }

    private Snapshot withoutShares(Instant now) {
        History known = history(now);
        return new Snapshot(now, policy, Map.of(), known.typical(), known.byProfile(), known.platformTypical(),
                Map.of());
    }

    /** Every team's share, usage and typical run now, for the admin API and the cycles under fair share. */
    public Snapshot read() {
        return read(clock.instant());
    }

    private Snapshot read(Instant now) {
        History known = history(now);
        Duration halfLife = policy.shareHalfLife();
        Map<String, Double> usage = new HashMap<>();
        known.endedUsage().forEach((team, used) -> usage.put(team, TeamShare.decay(used, known.readAt(), now, halfLife)));
        Snapshot expecting = withoutShares(now);
        for (RunHistory.Running run : runs.running()) {
            usage.merge(run.team(), TeamShare.charge(units(run.instanceType(), run.instanceCount()),
                    expecting.expectedRuntime(run.team(), run.profile(), run.maxRuntime()), halfLife), Double::sum);
        }
        Map<String, TeamShare> shares = new TreeMap<>();
        weights.weights().forEach((team, weight) ->
                shares.put(team, new TeamShare(weight, Math.max(0, usage.getOrDefault(team, 0.0)))));
        return new Snapshot(now, policy, shares, known.typical(), known.byProfile(), known.platformTypical(), Map.of());
    }

    private History history(Instant now) {
        History cached = history;
        if (cached == null || cached.readAt().plus(HISTORY_REFRESH).isBefore(now) || cached.readAt().isAfter(now)) {
            cached = readHistory(now);
            history = cached;
        }
        return cached;
    }

    private History readHistory(Instant now) {
        Duration halfLife = policy.shareHalfLife();
        Instant since = now.minus(halfLife.multipliedBy(10));
        Map<String, Double> ended = new HashMap<>();
        for (RunHistory.Ended run : runs.ended(now, since, halfLife)) {
            ended.merge(run.team(), run.decayedInstances() * units(run.instanceType(), 1) * TeamShare.meanLife(halfLife),
                    Double::sum);
        }
        Map<String, Duration> typical = new TreeMap<>();
        Map<String, Map<String, Duration>> byProfile = new TreeMap<>();
        for (RunHistory.Typical run : runs.typicalRuns(since, RUNS_PER_TEAM)) {
            if (run.profile() == null) {
                typical.put(run.team(), run.median());
            } else if (run.runs() >= PROFILE_RUNS) {
                byProfile.computeIfAbsent(run.team(), t -> new TreeMap<>()).put(run.profile(), run.median());
            }
        }
        // the platform's typical run: the median of the teams' medians, so that no busy team stands for all
        List<Duration> medians = typical.values().stream().sorted().toList();
        return new History(now, ended, typical, byProfile,
                medians.isEmpty() ? null : medians.get((medians.size() - 1) / 2));
    }

    private int units(String instanceType, int count) {
        return count * catalog.find(instanceType).map(InstanceType::shareUnits).orElse(1);
    }
}
