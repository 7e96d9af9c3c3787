package io.spillover.bench.replay;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;

/**
 * Expected run times from what has already ended, as the service's {@code FairShares} reads them from its
 * history: the median of the latest runs of the job's profile in its team once it has {@link #PROFILE_RUNS},
 * else the median of the team's latest runs, else the median of the teams' medians, else unknown. Only ended
 * runs count, so an estimate never uses the run time of a job that has not ended. (The service also forgets
 * runs older than ten half-lives of fair share; the replay's teams never pause that long with nothing ending.)
 */
final class RuntimeHistory {

    /** How many ended runs a profile needs before its own median stands for its jobs. */
    static final int PROFILE_RUNS = 5;

    private final int window;
    private final Map<String, Deque<Long>> byTeam = new HashMap<>();
    private final Map<String, Deque<Long>> byProfile = new HashMap<>();

    /** @param window how many of a team's (and of a profile's) latest runs count */
    RuntimeHistory(int window) {
        if (window < 1) {
            throw new IllegalArgumentException("window must be at least 1");
        }
        this.window = window;
    }

    /** @param profile the profile the job was submitted with, null for none */
    void ended(String team, String profile, Duration run) {
        long seconds = Math.max(1, run.toSeconds());
        add(byTeam.computeIfAbsent(team, t -> new ArrayDeque<>()), seconds);
        if (profile != null) {
            add(byProfile.computeIfAbsent(key(team, profile), k -> new ArrayDeque<>()), seconds);
        }
    }

    /**
     * The profile's median run once it has enough runs, else the team's, else the median of the teams'
     * medians, else null when nothing has ended yet.
     */
    Duration estimate(String team, String profile) {
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

    private void add(Deque<Long> runs, long seconds) {
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
