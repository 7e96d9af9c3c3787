package io.spillover.replay;

import io.spillover.placement.ExpectedRuns;
import io.spillover.placement.PreferenceList;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Expected run times from what is known at the moment, as the service's {@code FairShares} and {@code ExpectedRuns}
 * reckon them: the job's sweep (its team's jobs of the same profile submitted each within
 * {@link ExpectedRuns#SWEEP_GAP} of the one before) once members have run, else the median of the latest runs of
 * its profile in its team once it has {@link #PROFILE_RUNS}, else the team's median, else the median of the teams'
 * medians, else unknown. Only ended runs and the time running members have run so far count, so an estimate never
 * uses the run time of a job that has not ended. (The service also forgets runs older than ten half-lives of fair
 * share; the replay's teams never pause that long with nothing ending.)
 */
final class RuntimeHistory {

    /** How many ended runs a profile needs before its own median stands for its jobs. */
    static final int PROFILE_RUNS = 5;

    /** The members of one sweep that have started: the completed runs, latest last, and when each running one began. */
    private static final class Sweep {
        final Deque<Long> ended = new ArrayDeque<>();
        final Map<String, Long> running = new LinkedHashMap<>();
    }

    private final int window;
    private final Map<String, Deque<Long>> byTeam = new HashMap<>();
    private final Map<String, Deque<Long>> byProfile = new HashMap<>();
    /** Per team and sweep key, the latest submission and its sweep. */
    private final Map<String, long[]> latest = new HashMap<>();
    private final Map<String, Integer> sweepOf = new HashMap<>();
    private final Map<Integer, Sweep> sweeps = new HashMap<>();
    /** Pools made since the last run ended. */
    private final Map<String, RunPool> pools = new HashMap<>();
    private RunPool platform;

    /** @param window how many of a team's (and of a profile's) latest runs count */
    RuntimeHistory(int window) {
        if (window < 1) {
            throw new IllegalArgumentException("window must be at least 1");
        }
        this.window = window;
    }

    /** The job joins the sweep of its team's latest job with the same key, if that came within the gap. */
    void submitted(ReplayJob job) {
        String key = job.team() + '\n' + ExpectedRuns.sweepKey(job.profile(), job.kind(), new PreferenceList(job.choices()));
        long at = job.submitSeconds();
        long[] last = latest.get(key);
        int sweep = last != null && at - last[0] <= ExpectedRuns.SWEEP_GAP.toSeconds() ? (int) last[1] : job.rank();
        latest.put(key, new long[] {at, sweep});
        sweepOf.put(job.id(), sweep);
    }

    void started(ReplayJob job, long at) {
        sweeps.computeIfAbsent(sweepOf.get(job.id()), s -> new Sweep()).running.put(job.id(), at);
    }

    /** A reclaim stopped the job's attempt: it is no longer running, and its run is not known yet. */
    void stopped(ReplayJob job) {
        Sweep sweep = sweeps.get(sweepOf.get(job.id()));
        if (sweep != null) {
            sweep.running.remove(job.id());
        }
    }

    void ended(ReplayJob job, Duration run) {
        pools.clear();
        platform = null;
        long seconds = Math.max(1, run.toSeconds());
        add(byTeam.computeIfAbsent(job.team(), t -> new ArrayDeque<>()), seconds, window);
        add(byProfile.computeIfAbsent(key(job.team(), job.profile()), k -> new ArrayDeque<>()), seconds, window);
        Sweep sweep = sweeps.get(sweepOf.get(job.id()));
        sweep.running.remove(job.id());
        add(sweep.ended, seconds, ExpectedRuns.SWEEP_RUNS);
    }

    /**
     * What the service would expect of the job now ({@link ExpectedRuns#expected}).
     *
     * @param maxRuntime the job's own maximum run time, null for none
     * @param sweeps     whether its sweep counts (false: its typical run only, as the first queue policy had)
     */
    Duration expected(ReplayJob job, Duration maxRuntime, long now, boolean sweeps) {
        return ExpectedRuns.expected(maxRuntime, sweeps ? sweep(job, now) : ExpectedRuns.Sweep.NONE,
                typical(job.team(), job.profile()));
    }

    /** The job's sweep as it stands at {@code now}: its completed runs, and how long its running members have run. */
    ExpectedRuns.Sweep sweep(ReplayJob job, long now) {
        Sweep sweep = sweeps.get(sweepOf.get(job.id()));
        if (sweep == null) {
            return ExpectedRuns.Sweep.NONE;
        }
        List<Duration> ended = sweep.ended.stream().map(Duration::ofSeconds).toList();
        var running = new ArrayList<Duration>(sweep.running.size());
        sweep.running.values().forEach(start -> running.add(Duration.ofSeconds(now - start)));
        return new ExpectedRuns.Sweep(ended, running);
    }

    /**
     * The profile's median run once it has enough runs, else the team's, else the median of the teams'
     * medians, else null when nothing has ended yet.
     *
     * @param profile the profile the job was submitted with, null for none
     */
    Duration typical(String team, String profile) {
        Deque<Long> ofProfile = profile == null ? null : byProfile.get(key(team, profile));
        if (ofProfile != null && ofProfile.size() >= Math.min(PROFILE_RUNS, window)) {
            return Duration.ofSeconds(median(ofProfile));
        }
        Deque<Long> ofTeam = byTeam.get(team);
        if (ofTeam != null && !ofTeam.isEmpty()) {
            return Duration.ofSeconds(median(ofTeam));
        }
        long[] medians = byTeam.values().stream().filter(r -> !r.isEmpty()).mapToLong(RuntimeHistory::median).toArray();
        return medians.length == 0 ? null : Duration.ofSeconds(lowerMedian(medians));
    }

    /** The key of the job's sweep, as a forecast's {@link Runs#sweep} names it. */
    String sweepKey(ReplayJob job) {
        Integer sweep = sweepOf.get(job.id());
        return sweep == null ? null : Integer.toString(sweep);
    }

    /** The ended runs of every sweep that has any, by {@link #sweepKey}. */
    Map<String, List<Duration>> sweepRuns() {
        var runs = new HashMap<String, List<Duration>>();
        sweeps.forEach((sweep, known) -> {
            if (!known.ended.isEmpty()) {
                runs.put(Integer.toString(sweep), known.ended.stream().map(Duration::ofSeconds).toList());
            }
        });
        return runs;
    }

    /**
     * What a forecast knows of the job's run now, as the service would: its sweep, its maximum run time, and the
     * latest runs of its profile (once it has {@link #PROFILE_RUNS}), else of its team, else of the platform (every
     * team's latest), to draw from.
     */
    Runs runs(ReplayJob job, Duration maxRuntime) {
        return new Runs(maxRuntime, null, sweepKey(job), typical(job.team(), job.profile()),
                pool(job.team(), job.profile()));
    }

    /** The runs {@link #typical} takes its median of, as a pool; the platform's is every team's latest. */
    RunPool pool(String team, String profile) {
        return pools.computeIfAbsent(key(team, profile == null ? "" : profile), k -> {
            Deque<Long> ofProfile = profile == null ? null : byProfile.get(key(team, profile));
            if (ofProfile != null && ofProfile.size() >= Math.min(PROFILE_RUNS, window)) {
                return new RunPool(ofProfile.stream().map(Duration::ofSeconds).toList(),
                        "profile " + profile + "'s history in team " + team);
            }
            Deque<Long> ofTeam = byTeam.get(team);
            if (ofTeam != null && !ofTeam.isEmpty()) {
                return new RunPool(ofTeam.stream().map(Duration::ofSeconds).toList(), "team " + team + "'s history");
            }
            return platform();
        });
    }

    /** Every team's latest runs: the platform's history. */
    RunPool platform() {
        if (platform == null) {
            platform = new RunPool(byTeam.values().stream().flatMap(Deque::stream).map(Duration::ofSeconds).toList(),
                    "the platform's history");
        }
        return platform;
    }

    private static void add(Deque<Long> runs, long seconds, int window) {
        runs.addLast(seconds);
        if (runs.size() > window) {
            runs.removeFirst();
        }
    }

    private static String key(String team, String profile) {
        return team + '\n' + profile;
    }

    private static long median(Deque<Long> runs) {
        return lowerMedian(runs.stream().mapToLong(Long::longValue).toArray());
    }

    /** The lower median, as PostgreSQL's {@code percentile_disc(0.5)}. */
    private static long lowerMedian(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[(sorted.length - 1) / 2];
    }
}
