package io.spillover.placement;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;

/**
 * Expected run times from what has already ended: the median of a team's latest runs, else of the
 * platform's, else unknown. Only ended runs count, so an estimate never uses the run time of a job that has
 * not ended. Not thread-safe.
 */
public final class RuntimeHistory {

    private final int window;
    private final Map<String, Deque<Long>> byTeam = new HashMap<>();
    private final Deque<Long> all = new ArrayDeque<>();

    /** @param window how many of the latest runs count, per team and for the platform */
    public RuntimeHistory(int window) {
        if (window < 1) {
            throw new IllegalArgumentException("window must be at least 1");
        }
        this.window = window;
    }

    public void ended(String team, Duration run) {
        long seconds = Math.max(1, run.toSeconds());
        add(byTeam.computeIfAbsent(team, t -> new ArrayDeque<>()), seconds);
        add(all, seconds);
    }

    /** The team's median run, else the platform's, else null when nothing has ended yet. */
    public Duration estimate(String team) {
        Deque<Long> runs = byTeam.get(team);
        Deque<Long> basis = runs != null && !runs.isEmpty() ? runs : all;
        if (basis.isEmpty()) {
            return null;
        }
        long[] sorted = basis.stream().mapToLong(Long::longValue).sorted().toArray();
        return Duration.ofSeconds(sorted[(sorted.length - 1) / 2]);
    }

    private void add(Deque<Long> runs, long seconds) {
        runs.addLast(seconds);
        if (runs.size() > window) {
            runs.removeFirst();
        }
    }

    @Override
    public String toString() {
        return "RuntimeHistory" + Arrays.toString(new int[] {window, byTeam.size(), all.size()});
    }
}
