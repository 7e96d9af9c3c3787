package io.spillover.estimates;

import io.spillover.jobs.JobEstimates;
import io.spillover.replay.Calibration;
import io.spillover.replay.Situation;
import io.spillover.replay.StartEstimate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.springframework.stereotype.Component;

/**
 * Widens every estimate's interval by how the platform's latest first estimates compared with the starts that
 * followed ({@link Calibration}): each job's first estimate is kept as the forecast made it, and the jobs still
 * waiting count as waits at least as long as so far. On the trace replay this took the share of starts inside p10–p90
 * from about 0.2 to about 0.8 (docs/benchmarks.md, section 2); the median stays the forecast's.
 */
@Component
class ConformalCalibration implements EstimateCalibration {

    /** The most jobs {@link #recorded} holds (an estimation forecasts a few windows, not the whole queue). */
    static final int RECORDED = 20_000;

    private final JobEstimates estimates;
    /**
     * The jobs whose first estimate this instance has kept, so that it is not sent again each time; forgotten now and
     * then (sent again, the write keeps the first).
     */
    private final Set<UUID> recorded = new HashSet<>();

    ConformalCalibration(JobEstimates estimates) {
        this.estimates = estimates;
    }

    @Override
    public Map<UUID, StartEstimate> calibrate(Map<UUID, StartEstimate> forecast, Situation<UUID> situation) {
        Instant now = situation.now();
        Calibration calibration = Calibration.of(outcomes(estimates.latestFirst(Calibration.WINDOW), now));
        var first = new HashMap<UUID, long[]>();
        forecast.forEach((job, estimate) -> {
            if (estimate.p10() == null || estimate.p50() == null || estimate.p90() == null) {
                return;
            }
            if (!recorded.contains(job)) {
                first.put(job, new long[] {seconds(now, estimate.p10()), seconds(now, estimate.p50()),
                    seconds(now, estimate.p90())});
            }
        });
        estimates.recordFirst(now, first);
        if (recorded.size() + first.size() > RECORDED) {
            recorded.clear();
        }
        recorded.addAll(first.keySet());
        var deadlines = new HashMap<UUID, Instant>();
        situation.waiting().forEach(w -> deadlines.put(w.job().id(), w.deadline()));
        var calibrated = new LinkedHashMap<UUID, StartEstimate>();
        forecast.forEach((job, estimate) -> calibrated.put(job,
                calibration.correct(estimate, now, deadlines.get(job))));
        return calibrated;
    }

    /** Oldest first, as {@link Calibration#of} takes them. */
    static List<Calibration.Outcome> outcomes(List<JobEstimates.FirstEstimate> newestFirst, Instant now) {
        var outcomes = new ArrayList<Calibration.Outcome>(newestFirst.size());
        for (int i = newestFirst.size() - 1; i >= 0; i--) {
            JobEstimates.FirstEstimate f = newestFirst.get(i);
            boolean started = f.started() != null;
            outcomes.add(new Calibration.Outcome(f.p10(), f.p50(), f.p90(),
                    seconds(f.made(), started ? f.started() : now), started));
        }
        return outcomes;
    }

    private static long seconds(Instant from, Instant to) {
        return Math.max(0, Duration.between(from, to).toSeconds());
    }
}
