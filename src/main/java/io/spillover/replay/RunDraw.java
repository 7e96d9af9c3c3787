package io.spillover.replay;

import java.util.ArrayList;
import java.util.Arrays;

/**
 * A run-time distribution a forecast draws from: run times in seconds with their probabilities, shortest first, and a
 * tail of what is only known to run longer than the longest seen. A draw may be conditioned on a run having lasted so
 * long already (a running job). A draw in the tail is "as long again": between the longest seen (or the time already
 * run, if longer) and twice that, as {@link io.spillover.placement.ExpectedRuns} expects of a sweep whose runs so far
 * have not ended.
 */
final class RunDraw {

    private final long[] values;
    /** cumulative[i]: the probability of a run no longer than values[i]. */
    private final double[] cumulative;
    private final long longest;

    private RunDraw(long[] values, double[] cumulative, long longest) {
        this.values = values;
        this.cumulative = cumulative;
        this.longest = Math.max(1, longest);
    }

    static RunDraw point(long seconds) {
        return new RunDraw(new long[] {Math.max(1, seconds)}, new double[] {1}, seconds);
    }

    /** Each of the runs alike. */
    static RunDraw empirical(long[] sorted) {
        if (sorted.length == 0) {
            throw new IllegalArgumentException("no runs to draw from");
        }
        double[] cumulative = new double[sorted.length];
        for (int i = 0; i < sorted.length; i++) {
            cumulative[i] = (i + 1.0) / sorted.length;
        }
        return new RunDraw(sorted, cumulative, sorted[sorted.length - 1]);
    }

    /**
     * Kaplan and Meier's estimate from ended runs and runs still going (each known to last at least as long as it has
     * gone so far); what survives past the last ended run is the tail.
     */
    static RunDraw kaplanMeier(long[] ended, long[] running) {
        long[] events = ended.clone();
        Arrays.sort(events);
        long[] censored = running.clone();
        Arrays.sort(censored);
        var values = new ArrayList<Long>();
        var cumulative = new ArrayList<Double>();
        double surviving = 1;
        int atRisk = events.length + censored.length;
        int c = 0;
        int i = 0;
        long longest = 0;
        while (i < events.length) {
            long time = events[i];
            // a run still going at an end's time was at risk until then
            while (c < censored.length && censored[c] < time) {
                atRisk--;
                c++;
            }
            int ending = 0;
            while (i < events.length && events[i] == time) {
                ending++;
                i++;
            }
            surviving *= 1 - (double) ending / atRisk;
            atRisk -= ending;
            values.add(time);
            cumulative.add(1 - surviving);
            longest = time;
        }
        if (censored.length > 0) {
            longest = Math.max(longest, censored[censored.length - 1]);
        }
        return new RunDraw(values.stream().mapToLong(Long::longValue).toArray(),
                cumulative.stream().mapToDouble(Double::doubleValue).toArray(), longest);
    }

    /** The same distribution with every run {@code factor} times as long. */
    RunDraw scaled(double factor) {
        long[] scaled = new long[values.length];
        for (int i = 0; i < values.length; i++) {
            scaled[i] = Math.max(1, Math.round(values[i] * factor));
        }
        return new RunDraw(scaled, cumulative, Math.max(1, Math.round(longest * factor)));
    }

    /**
     * A whole run, drawn with {@code u} in [0, 1), of a job that has run {@code elapsed} seconds so far: longer than
     * that.
     */
    long draw(double u, long elapsed) {
        int first = firstAbove(elapsed);
        double below = first == 0 ? 0 : cumulative[first - 1];
        double last = values.length == 0 ? 0 : cumulative[values.length - 1];
        double left = 1 - below;
        if (left <= 1e-12 || first == values.length && last >= 1 - 1e-12) {
            return asLongAgain(u, elapsed);
        }
        double x = below + u * left;
        if (x > last) {
            return asLongAgain((x - last) / (1 - last), elapsed);
        }
        int at = Arrays.binarySearch(cumulative, first, values.length, x);
        int index = at >= 0 ? at : -at - 1;
        return values[Math.min(index, values.length - 1)];
    }

    private long asLongAgain(double u, long elapsed) {
        long from = Math.max(longest, elapsed + 1);
        return from + (long) (Math.max(0, Math.min(1, u)) * from);
    }

    private int firstAbove(long elapsed) {
        int low = 0;
        int high = values.length;
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (values[mid] > elapsed) {
                high = mid;
            } else {
                low = mid + 1;
            }
        }
        return low;
    }
}
