package io.spillover.replay;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;

/**
 * How well starts were estimated on a replay ({@link EstimateAccuracy}): of the jobs that waited at least the minimum,
 * the share whose start fell within their estimate's p10–p90 and the median relative error of its p50 (|p50 − start|
 * over the wait), and the same for the naive estimate in the same run.
 *
 * @param jobsEstimated   which jobs, in words
 * @param waitedLong      jobs of the run that waited at least the minimum
 * @param jobs            of those, the jobs estimated
 * @param noEstimate      estimated jobs that started in no sample of the forecast's horizon
 * @param medianBias      the median of (p50 − start) over the wait: below 0, estimates too early
 * @param forecastMillis  real time the forecasts took, all together
 * @param passes          queue passes the forecasts ran, all together
 */
public record EstimateReport(String policy, String jobsEstimated, String arrivals, int samples, int waitedLong,
                             int jobs, int noEstimate, double intervalCoverage, double medianRelativeError,
                             double medianBias, Naive baseline, List<Band> byWait, long forecasts, long forecastMillis,
                             long passes) {

    /** The naive estimate's figures. */
    public record Naive(String method, double intervalCoverage, double medianRelativeError, double medianBias) {
    }

    /** The figures of the jobs whose wait was in a band. */
    public record Band(String waited, int jobs, double intervalCoverage, double medianRelativeError,
                       double naiveCoverage, double naiveError) {
    }

    static final String NAIVE = "the job's place in the line of waiting jobs whose first choice is its first choice's"
            + " type (1 for the first) × the platform's mean run ÷ the type's instances; interval from the p10 and p90"
            + " runs instead of the mean";

    private static final long[][] BANDS = {{600, 3600}, {3600, 6 * 3600}, {6 * 3600, 86_400}, {86_400, Long.MAX_VALUE}};
    private static final String[] BAND_NAMES = {"10 min – 1 h", "1 – 6 h", "6 h – 1 d", "≥ 1 d"};

    static EstimateReport of(String policy, String jobsEstimated, EstimateAccuracy.Settings settings, int waitedLong,
                             List<EstimateAccuracy.Estimated> estimates, long forecasts, long forecastMillis,
                             long passes) {
        var bands = new ArrayList<Band>();
        for (int b = 0; b < BANDS.length; b++) {
            long low = BANDS[b][0];
            long high = BANDS[b][1];
            List<EstimateAccuracy.Estimated> in = estimates.stream()
                    .filter(e -> e.waited() >= low && e.waited() < high).toList();
            if (!in.isEmpty()) {
                bands.add(new Band(BAND_NAMES[b], in.size(), coverage(in, x -> true), error(in, false),
                        naiveCoverage(in), error(in, true)));
            }
        }
        String arrivals = switch (settings.arrivals()) {
            case NONE -> "none: the forecast serves the jobs waiting at the moment of the estimate only";
            case LAST_DAY -> "the last day's submissions, expected again each day for " + settings.arrivalDays()
                    + " days";
        };
        return new EstimateReport(policy, jobsEstimated, arrivals, settings.samples(), waitedLong, estimates.size(),
                (int) estimates.stream().filter(e -> e.p50() == null).count(), coverage(estimates, x -> true),
                error(estimates, false), bias(estimates, false),
                new Naive(NAIVE, naiveCoverage(estimates), error(estimates, true), bias(estimates, true)), bands,
                forecasts, forecastMillis, passes);
    }

    private static double coverage(List<EstimateAccuracy.Estimated> estimates,
                                   Predicate<EstimateAccuracy.Estimated> which) {
        List<EstimateAccuracy.Estimated> these = estimates.stream().filter(which).toList();
        return these.isEmpty() ? 0 : (double) these.stream().filter(e -> e.p10() != null && e.p10() <= e.waited()
                && (e.p90() == null || e.waited() <= e.p90())).count() / these.size();
    }

    private static double naiveCoverage(List<EstimateAccuracy.Estimated> estimates) {
        return estimates.isEmpty() ? 0 : (double) estimates.stream().filter(e -> e.naive() >= 0
                && e.naiveLow() <= e.waited() && e.waited() <= e.naiveHigh()).count() / estimates.size();
    }

    /** Median of |p50 − start| ÷ wait; no estimate counts as the forecast's horizon. */
    private static double error(List<EstimateAccuracy.Estimated> estimates, boolean naive) {
        return median(estimates.stream().mapToDouble(e -> Math.abs(signed(e, naive))).toArray());
    }

    private static double bias(List<EstimateAccuracy.Estimated> estimates, boolean naive) {
        return median(estimates.stream().mapToDouble(e -> signed(e, naive)).toArray());
    }

    private static double signed(EstimateAccuracy.Estimated e, boolean naive) {
        long estimate = naive ? (e.naive() < 0 ? 0 : e.naive())
                : e.p50() == null ? Forecast.HORIZON.toSeconds() : e.p50();
        return (double) (estimate - e.waited()) / e.waited();
    }

    private static double median(double[] values) {
        if (values.length == 0) {
            return 0;
        }
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }
}
