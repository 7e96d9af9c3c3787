package io.spillover.replay;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * How far a forecast's intervals have missed lately, and an estimate's interval widened by it: split-conformal
 * calibration (Romano, Patterson and Candès, <i>Conformalized Quantile Regression</i>, 2019) on the logarithm of the
 * wait. A forecast's samples know when running jobs may end but not which jobs will be submitted later and overtake
 * (a short job ranks ahead of a long one), nor how far the history it draws runs from is off; so its p10–p90 holds
 * far fewer than eight starts in ten. How much fewer, the platform's latest estimates say.
 *
 * <p>From the latest {@link #WINDOW} estimates (each made when its job was first found waiting): the low end moves
 * down until at most one in ten of them started before it, the high end up until at most one in ten started after
 * it. Jobs of those still waiting count too, as waits at least as long as they have waited so far (by Kaplan and
 * Meier), for the longest waits are the ones not yet over, and leaving them out would learn that estimates are late
 * too rarely. The median stays the forecast's: moving it by the latest misses was measured to make it worse (see
 * docs/benchmarks.md). Waits are counted with a minute added ({@link #OFFSET}) so that a start "now" has a
 * logarithm. Below {@link #MIN_OUTCOMES} estimates it changes nothing. Pure: the caller keeps the outcomes.
 */
public final class Calibration {

    /** Estimates needed before an interval is widened. */
    public static final int MIN_OUTCOMES = 20;
    /** The latest estimates it learns from. */
    public static final int WINDOW = 200;
    /** Added to every wait before its logarithm. */
    static final double OFFSET = 60;
    /** The share of starts each end of the interval may miss. */
    static final double MISS = 0.1;

    /** Changes nothing. */
    public static final Calibration NONE = new Calibration(0, 0, 0);

    /**
     * One job's estimate, made when it was first found waiting, and what happened since.
     *
     * @param p10     the estimate's p10, as a wait from when it was made, in seconds
     * @param waited  how long the job waited from that moment: all of its wait if it has started, else so far
     * @param started whether it has started (else it is still waiting)
     */
    public record Outcome(long p10, long p50, long p90, long waited, boolean started) {

        public Outcome {
            if (p10 < 0 || p50 < p10 || p90 < p50 || waited < 0) {
                throw new IllegalArgumentException("an outcome needs 0 ≤ p10 ≤ p50 ≤ p90 and a wait ≥ 0");
            }
        }
    }

    private final int outcomes;
    private final double lower;
    private final double upper;

    private Calibration(int outcomes, double lower, double upper) {
        this.outcomes = outcomes;
        this.lower = lower;
        this.upper = upper;
    }

    /** Learnt from the latest {@link #WINDOW} of these outcomes (the list's last ones are the latest). */
    public static Calibration of(List<Outcome> outcomes) {
        List<Outcome> latest = outcomes.subList(Math.max(0, outcomes.size() - WINDOW), outcomes.size());
        int n = latest.size();
        if (n < MIN_OUTCOMES) {
            return new Calibration(n, 0, 0);
        }
        // how far below p10 each start came: for a job still waiting, no further than its wait so far
        double[] early = new double[n];
        var late = new ArrayList<double[]>(n);
        for (int i = 0; i < n; i++) {
            Outcome o = latest.get(i);
            double waited = log(o.waited());
            early[i] = log(o.p10()) - waited;
            late.add(new double[] {waited - log(o.p90()), o.started() ? 1 : 0});
        }
        return new Calibration(n, conformal(early), kaplanMeierQuantile(late, 1 - MISS));
    }

    /** How many estimates it learnt from. */
    public int outcomes() {
        return outcomes;
    }

    /** Whether it widens anything. */
    public boolean corrects() {
        return outcomes >= MIN_OUTCOMES;
    }

    /**
     * The estimate with its interval widened; one with no start within the forecast's horizon stays as it is.
     *
     * @param made     when the forecast was made: its waits count from then
     * @param deadline when the job stops waiting (its maximum pending time), null for never
     */
    public StartEstimate correct(StartEstimate estimate, Instant made, Instant deadline) {
        Objects.requireNonNull(made, "made");
        if (!corrects() || estimate.p10() == null || estimate.p50() == null || estimate.p90() == null) {
            return estimate;
        }
        long[] waits = correct(seconds(made, estimate.p10()), seconds(made, estimate.p50()),
                seconds(made, estimate.p90()));
        // the waits are whole seconds and the median keeps its fraction: the ends must not cross it
        Instant p50 = estimate.p50();
        Instant p10 = made.plusSeconds(waits[0]);
        Instant p90 = made.plusSeconds(waits[2]);
        return new StartEstimate(p10.isAfter(p50) ? p50 : p10, p50, p90.isBefore(p50) ? p50 : p90,
                estimate.entry(), estimate.basis(), deadline != null && p50.isAfter(deadline));
    }

    /** The same on waits in seconds from the estimate: p10, p50 and p90. */
    public long[] correct(long p10, long p50, long p90) {
        if (!corrects()) {
            return new long[] {p10, p50, p90};
        }
        double middle = log(p50);
        return new long[] {Math.min(p50, wait(log(p10) - lower)), p50,
            Math.max(p50, wait(Math.max(middle, log(p90) + upper)))};
    }

    /**
     * The smallest widening that at most {@link #MISS} of the scores exceed, at split conformal's finite-sample rank
     * ⌈(n + 1)(1 − miss)⌉.
     */
    private static double conformal(double[] scores) {
        double[] sorted = scores.clone();
        Arrays.sort(sorted);
        int rank = (int) Math.ceil((sorted.length + 1) * (1 - MISS));
        return sorted[Math.min(sorted.length, rank) - 1];
    }

    /**
     * The quantile of scores some of which are only known to be at least so large ({score, 1 if known exactly}), by
     * Kaplan and Meier; the largest score when the estimate never reaches the quantile.
     */
    private static double kaplanMeierQuantile(List<double[]> scores, double quantile) {
        scores.sort(Comparator.<double[]>comparingDouble(s -> s[0]).thenComparingDouble(s -> -s[1]));
        double surviving = 1;
        int atRisk = scores.size();
        int i = 0;
        while (i < scores.size()) {
            double value = scores.get(i)[0];
            int ended = 0;
            int censored = 0;
            while (i < scores.size() && scores.get(i)[0] == value) {
                if (scores.get(i)[1] == 1) {
                    ended++;
                } else {
                    censored++;
                }
                i++;
            }
            if (ended > 0) {
                surviving *= 1 - (double) ended / atRisk;
            }
            atRisk -= ended + censored;
            if (1 - surviving >= quantile) {
                return value;
            }
        }
        return scores.get(scores.size() - 1)[0];
    }

    private static double log(long seconds) {
        return Math.log(Math.max(0, seconds) + OFFSET);
    }

    private static long wait(double log) {
        return Math.max(0, Math.round(Math.exp(log) - OFFSET));
    }

    private static long seconds(Instant from, Instant to) {
        return Math.max(0, Duration.between(from, to).toSeconds());
    }

    @Override
    public String toString() {
        return corrects() ? String.format(java.util.Locale.ROOT, "from the latest %d estimates: p10 ×%.2f, p90 ×%.2f",
                outcomes, Math.exp(-lower), Math.exp(upper)) : "none (" + outcomes + " estimates)";
    }
}
