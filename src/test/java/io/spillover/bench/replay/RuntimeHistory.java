package io.spillover.bench.replay;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;

/**
 * Expected run times from what has already ended, as the service's {@code FairShares} reads them from its
 * history: the median of a team's latest runs, else the median of the teams' medians, else unknown. Only ended
 * runs count, so an estimate never uses the run time of a job that has not ended. (The service also forgets
 * runs older than ten half-lives of fair share; the replay's teams never pause that long with nothing ending.)
 */
final class RuntimeHistory {

    private final int window;
    private final Map<String, Deque<Long>> byTeam = new HashMap<>();

    /** @param window how many of a team's latest runs count */
    RuntimeHistory(int window) {
        if (window < 1) {
            throw new IllegalArgumentException("window must be at least 1");
        }
        this.window = window;
    }

    void ended(String team, Duration run) {
        Deque<Long> runs = byTeam.computeIfAbsent(team, t -> new ArrayDeque<>());
        runs.addLast(Math.max(1, run.toSeconds()));
        if (runs.size() > window) {
            runs.removeFirst();
        }
    }

    /** The team's median run, else the median of the teams' medians, else null when nothing has ended yet. */
    Duration estimate(String team) {
        Deque<Long> runs = byTeam.get(team);
        if (runs != null && !runs.isEmpty()) {
            return Duration.ofSeconds(median(runs.stream().mapToLong(Long::longValue).toArray()));
        }
        long[] medians = byTeam.values().stream().filter(r -> !r.isEmpty())
                .mapToLong(r -> median(r.stream().mapToLong(Long::longValue).toArray())).toArray();
        return medians.length == 0 ? null : Duration.ofSeconds(median(medians));
    }

    /** The lower median, as PostgreSQL's {@code percentile_disc(0.5)}. */
    private static long median(long[] values) {
        long[] sorted = values.clone();
        java.util.Arrays.sort(sorted);
        return sorted[(sorted.length - 1) / 2];
    }
}
