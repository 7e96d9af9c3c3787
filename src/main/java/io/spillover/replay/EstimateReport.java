package io.spillover.replay;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * How well starts were estimated on a replay ({@link EstimateAccuracy}): of the jobs that waited at least the minimum,
 * the share whose start fell within their estimate's p10–p90 and the median relative error of its p50 (|p50 − start|
 * over the wait); the same for the forecast before its {@link Calibration}, and for the naive estimate in the same run.
 *
 * @param jobsEstimated   which jobs, in words
 * @param jobs            the estimated jobs that waited at least the minimum: those measured
 * @param noEstimate      measured jobs that started in no sample of the forecast's horizon
 * @param medianBias      the median of (p50 − start) over the wait: below 0, estimates too early
 * @param forecast        the forecast's own figures, before calibration
 * @param calibration     the calibration as learnt by the end of the run, in words
 * @param forecastMillis  real time the forecasts took, all together
 * @param passes          queue passes the forecasts ran, all together
 */
public record EstimateReport(String policy, String jobsEstimated, String arrivals, String runs, int samples,
                             int jobs, int noEstimate, double intervalCoverage,
                             double medianRelativeError, double medianBias, Figures forecast, String calibration,
                             Figures baseline, List<Band> byWait, long forecasts, long forecastMillis, long passes) {

    /** One estimate's figures. */
    public record Figures(String method, double intervalCoverage, double medianRelativeError, double medianBias) {
    }

    /** The figures of the jobs whose wait was in a band: shown, forecast before calibration, naive. */
    public record Band(String waited, int jobs, double intervalCoverage, double medianRelativeError,
                       double forecastCoverage, double forecastError, double naiveCoverage, double naiveError) {
    }

    static final String NAIVE = "the job's place in the line of waiting jobs whose first choice is its first choice's"
            + " type (1 for the first) × the platform's mean run ÷ the type's instances; interval from the p10 and p90"
            + " runs instead of the mean";

    static final String FORECAST = "the forecast's p10, p50 and p90 over its samples, before calibration";

    private static final long[][] BANDS = {{600, 3600}, {3600, 6 * 3600}, {6 * 3600, 86_400}, {86_400, Long.MAX_VALUE}};
    private static final String[] BAND_NAMES = {"10 min – 1 h", "1 – 6 h", "6 h – 1 d", "≥ 1 d"};

    /** Which estimate of a job: shown (calibrated), the forecast's own, or the naive one. */
    private enum Kind { SHOWN, FORECAST, NAIVE }

    static EstimateReport of(String policy, String jobsEstimated, EstimateAccuracy.Settings settings,
                             List<EstimateAccuracy.Estimated> estimates, Calibration calibration, long forecasts,
                             long forecastMillis, long passes) {
        var bands = new ArrayList<Band>();
        for (int b = 0; b < BANDS.length; b++) {
            long low = BANDS[b][0];
            long high = BANDS[b][1];
            List<EstimateAccuracy.Estimated> in = estimates.stream()
                    .filter(e -> e.waited() >= low && e.waited() < high).toList();
            if (!in.isEmpty()) {
                bands.add(new Band(BAND_NAMES[b], in.size(), coverage(in, Kind.SHOWN), error(in, Kind.SHOWN),
                        coverage(in, Kind.FORECAST), error(in, Kind.FORECAST), coverage(in, Kind.NAIVE),
                        error(in, Kind.NAIVE)));
            }
        }
        String arrivals = switch (settings.arrivals()) {
            case NONE -> "none: the forecast serves the jobs waiting at the moment of the estimate only";
            case LAST_DAY -> "the last day's submissions, expected again each day for " + settings.arrivalDays()
                    + " days";
        };
        String runs = switch (settings.runs()) {
            case HISTORY -> "what the service knows: sweeps, history, maximum run times";
            case TRUE_RUNS -> "every job's true run (a measurement: no service knows it)";
        };
        return new EstimateReport(policy, jobsEstimated, arrivals, runs, settings.samples(), estimates.size(),
                (int) estimates.stream().filter(e -> e.p50() == null).count(),
                coverage(estimates, Kind.SHOWN), error(estimates, Kind.SHOWN), bias(estimates, Kind.SHOWN),
                figures(FORECAST, estimates, Kind.FORECAST), calibration.toString(),
                figures(NAIVE, estimates, Kind.NAIVE), bands, forecasts, forecastMillis, passes);
    }

    private static Figures figures(String method, List<EstimateAccuracy.Estimated> estimates, Kind kind) {
        return new Figures(method, coverage(estimates, kind), error(estimates, kind), bias(estimates, kind));
    }

    /** The share of starts within p10–p90; no start within the horizon covers nothing (the start came). */
    private static double coverage(List<EstimateAccuracy.Estimated> estimates, Kind kind) {
        return estimates.isEmpty() ? 0 : (double) estimates.stream().filter(e -> covers(e, kind)).count()
                / estimates.size();
    }

    private static boolean covers(EstimateAccuracy.Estimated e, Kind kind) {
        return switch (kind) {
            case SHOWN -> e.p10() != null && e.p10() <= e.waited() && (e.p90() == null || e.waited() <= e.p90());
            case FORECAST -> e.raw10() != null && e.raw10() <= e.waited()
                    && (e.raw90() == null || e.waited() <= e.raw90());
            case NAIVE -> e.naive() >= 0 && e.naiveLow() <= e.waited() && e.waited() <= e.naiveHigh();
        };
    }

    /** Median of |p50 − start| ÷ wait; no estimate counts as the forecast's horizon. */
    private static double error(List<EstimateAccuracy.Estimated> estimates, Kind kind) {
        return median(estimates.stream().mapToDouble(e -> Math.abs(signed(e, kind))).toArray());
    }

    private static double bias(List<EstimateAccuracy.Estimated> estimates, Kind kind) {
        return median(estimates.stream().mapToDouble(e -> signed(e, kind)).toArray());
    }

    private static double signed(EstimateAccuracy.Estimated e, Kind kind) {
        long horizon = Forecast.HORIZON.toSeconds();
        long estimate = switch (kind) {
            case SHOWN -> e.p50() == null ? horizon : e.p50();
            case FORECAST -> e.raw50() == null ? horizon : e.raw50();
            case NAIVE -> e.naive() < 0 ? 0 : e.naive();
        };
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
