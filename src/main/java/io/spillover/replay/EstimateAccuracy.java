package io.spillover.replay;

import io.spillover.placement.Capacity;
import io.spillover.placement.QueuePolicy;
import io.spillover.placement.RunningPlacement;
import io.spillover.placement.QueuedRequest;
import io.spillover.placement.TeamShare;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * How well a {@link Forecast} estimates starts, where the truth is known: a queue policy's replay is run again, and at
 * the step in which each chosen job was submitted (its submission's cycle done, the job still waiting) a forecast
 * from what the replay knew then, and only that, estimates its start; the start the replay then gave it is the truth.
 * The jobs are chosen among those still waiting after their submission's cycle, as the service estimates every such
 * job, not by how long they then waited; the figures are of those that waited at least the minimum.
 *
 * <p>The estimate shown is the forecast's corrected by a {@link Calibration} learnt from the chosen jobs whose start
 * had happened by then, as the service learns from its own; the forecast's own figures are reported beside it. Beside
 * them, a naive estimate as a Slurm-like scheduler gives one: the job's place in the line of jobs waiting for its
 * first choice's type, times the platform's mean run, over the type's instances. The replay's decisions are those of
 * the policy's own run (checked: estimating changes none of them).
 */
public final class EstimateAccuracy {

    /** How the forecast expects jobs submitted after the moment of the estimate. */
    public enum Arrivals {
        /** No job is expected: what waits now is all there is. */
        NONE,
        /** The last day's submissions are expected again every day, for {@link Settings#arrivalDays} days. */
        LAST_DAY
    }

    /** What the forecast knows of run times. */
    public enum RunKnowledge {
        /** What the service knows: history, sweeps, maximum run times. */
        HISTORY,
        /** Every job's true run (a measurement of how much of the miss is the run times; no service knows it). */
        TRUE_RUNS
    }

    /**
     * @param maxJobs     at most this many jobs are estimated, a random sample (from {@code seed}) of those still
     *                    waiting after their submission's cycle; 0 for all of them
     * @param minWait     only jobs that waited this long are measured
     * @param arrivalDays how many days ahead {@link Arrivals#LAST_DAY} repeats the last day's submissions
     * @param samples     the forecast's samples
     */
    public record Settings(int maxJobs, Duration minWait, Arrivals arrivals, int arrivalDays, int samples, long seed,
                           RunKnowledge runs) {

        public static final Settings DEFAULT = new Settings(0, Duration.ofMinutes(10), Arrivals.NONE, 7,
                Forecast.SAMPLES, 17, RunKnowledge.HISTORY);

        public Settings withMaxJobs(int jobs) {
            return new Settings(jobs, minWait, arrivals, arrivalDays, samples, seed, runs);
        }

        public Settings withArrivals(Arrivals model) {
            return new Settings(maxJobs, minWait, model, arrivalDays, samples, seed, runs);
        }

        public Settings withSamples(int count) {
            return new Settings(maxJobs, minWait, arrivals, arrivalDays, count, seed, runs);
        }

        public Settings withRuns(RunKnowledge knowledge) {
            return new Settings(maxJobs, minWait, arrivals, arrivalDays, samples, seed, knowledge);
        }
    }

    private final Fleet fleet;
    private final Settings settings;
    private final LongSupplier stopwatch;

    /** @param stopwatch nanoseconds from a fixed point, to report what the forecasts cost; the replay reads no clock */
    public EstimateAccuracy(Fleet fleet, Settings settings, LongSupplier stopwatch) {
        this.fleet = fleet;
        this.settings = settings;
        this.stopwatch = stopwatch;
    }

    /**
     * One job's estimate at its submission, as waits from then in seconds (null: no start within the horizon): the
     * forecast's ({@code raw}), corrected ({@code p10}, {@code p50}, {@code p90}), the naive one, and what happened.
     */
    record Estimated(ReplayJob job, long waited, Long p10, Long p50, Long p90, Long raw10, Long raw50, Long raw90,
                     long naiveLow, long naive, long naiveHigh) {
    }

    /**
     * @param run the policy's own replay of the jobs, whose starts are the truth
     */
    public EstimateReport measure(Policy.Queued policy, List<ReplayJob> jobs, PolicyRun run) {
        if (policy.knowledge() != Policy.Knowledge.HISTORY) {
            throw new IllegalArgumentException("estimates are measured on what the service knows: " + policy.name());
        }
        Map<String, JobRun> truth = new HashMap<>();
        run.runs().forEach(r -> truth.put(r.job().id(), r));
        // an estimate is of a job's first start: a job that started at once and was preempted later did not wait
        List<String> waited = run.runs().stream().filter(r -> firstWait(r) > 0)
                .map(r -> r.job().id()).sorted().toList();
        Set<String> chosen = choose(waited);
        long minWait = settings.minWait().toSeconds();
        var estimates = new ArrayList<Estimated>();
        var forecast = new Forecast(fleet.catalog(), settings.samples(), Forecast.HORIZON);
        // every estimate made so far, in order, with its job's submission, start and wait
        var made = new ArrayList<long[]>();
        long[] cost = new long[3];
        var observed = new QueueReplay(fleet, false).run(policy, jobs, List.of(), Progress.NONE, step -> {
            var targets = new HashMap<String, ReplayJob>();
            for (ReplayJob job : step.submitted()) {
                if (chosen.contains(job.id())) {
                    targets.put(job.id(), job);
                }
            }
            if (targets.isEmpty()) {
                return;
            }
            Calibration calibration = Calibration.of(outcomes(made, step.now()));
            long started = stopwatch.getAsLong();
            Situation<String> situation = situation(step, jobs);
            Forecast.Result<String> result = forecast.estimate(situation, targets.keySet(), trueRuns(step, truth));
            cost[0]++;
            cost[1] += stopwatch.getAsLong() - started;
            cost[2] += result.passes();
            targets.values().stream().sorted(java.util.Comparator.comparing(ReplayJob::id)).forEach(job -> {
                StartEstimate raw = result.estimates().get(job.id());
                StartEstimate shown = calibration.correct(raw, situation.now(), null);
                long[] naive = naive(job, step, policy);
                JobRun actual = truth.get(job.id());
                var estimated = new Estimated(job, firstWait(actual), offset(shown.p10(), job),
                        offset(shown.p50(), job), offset(shown.p90(), job), offset(raw.p10(), job),
                        offset(raw.p50(), job), offset(raw.p90(), job), naive[0], naive[1], naive[2]);
                if (raw.p90() != null) {
                    made.add(new long[] {job.submitSeconds(), actual.firstStartSeconds(), estimated.raw10(),
                        estimated.raw50(), estimated.raw90()});
                }
                if (firstWait(actual) >= minWait) {
                    estimates.add(estimated);
                }
            });
        });
        if (!Fixed.starts(observed).equals(Fixed.starts(run))) {
            throw new IllegalStateException("estimating changed the replay's decisions");
        }
        return EstimateReport.of(policy.name(), describe(waited.size(), chosen.size(), estimates.size()), settings,
                estimates, Calibration.of(outcomes(made, Long.MAX_VALUE)), cost[0], cost[1] / 1_000_000, cost[2]);
    }

    /**
     * The latest estimates as the service would know them at {@code now}: a job started by then with its wait, one
     * still waiting with its wait so far.
     */
    private static List<Calibration.Outcome> outcomes(List<long[]> made, long now) {
        var outcomes = new ArrayList<Calibration.Outcome>(Calibration.WINDOW);
        for (long[] m : made.subList(Math.max(0, made.size() - Calibration.WINDOW), made.size())) {
            boolean started = m[1] <= now;
            outcomes.add(new Calibration.Outcome(m[2], m[3], m[4], (started ? m[1] : now) - m[0], started));
        }
        return outcomes;
    }

    /** From the job's submission to its first start: what its estimate at submission is of. */
    private static long firstWait(JobRun run) {
        return run.firstStartSeconds() - run.job().submitSeconds();
    }

    /** Under {@link RunKnowledge#TRUE_RUNS}, every running and waiting job's true run; else none. */
    private Map<String, Long> trueRuns(QueueReplay.Step step, Map<String, JobRun> truth) {
        if (settings.runs() == RunKnowledge.HISTORY) {
            return Map.of();
        }
        var runs = new HashMap<String, Long>();
        step.running().stream().filter(r -> r.job() != null)
                .forEach(r -> runs.put(r.job().id(), r.endSeconds() - r.startSeconds()));
        step.pending().values().forEach(job -> runs.put(job.id(), truth.get(job.id()).runSeconds()));
        return runs;
    }

    private String describe(int waited, int chosen, int measured) {
        return (chosen == waited ? "every one of the " + waited : "a random sample (seed " + settings.seed() + ") of "
                + chosen + " of the " + waited) + " jobs still waiting after their submission's cycle, each estimated"
                + " then; measured: the " + measured + " of them that waited at least "
                + io.spillover.placement.QueuePass.words(settings.minWait());
    }

    private Set<String> choose(List<String> candidates) {
        if (settings.maxJobs() <= 0 || candidates.size() <= settings.maxJobs()) {
            return new HashSet<>(candidates);
        }
        var shuffled = new ArrayList<>(candidates);
        Collections.shuffle(shuffled, new java.util.Random(settings.seed()));
        return new HashSet<>(shuffled.subList(0, settings.maxJobs()));
    }

    /** Seconds from the job's submission to the instant; null stays null (no start within the horizon). */
    private static Long offset(Instant at, ReplayJob job) {
        return at == null ? null : VirtualTime.seconds(at) - job.submitSeconds();
    }

    /** What the forecast would be handed at this step, from what the replay knows now. */
    private Situation<String> situation(QueueReplay.Step step, List<ReplayJob> jobs) {
        long now = step.now();
        Instant at = VirtualTime.at(now);
        QueuePolicy rules = step.rules();
        Capacity capacity = step.ledger().snapshot();
        RuntimeHistory history = step.history();
        var running = new ArrayList<Situation.Running<String>>();
        var sweeps = new HashSet<String>();
        // what a reclaim knows of each placement, as the step's pass read it
        var placements = new HashMap<String, RunningPlacement>();
        step.placements().forEach(p -> placements.put(p.job(), p));
        for (QueueReplay.Running run : step.running()) {
            if (run.job() == null) {
                running.add(new Situation.Running<>("holding-" + run.rank(), run.team(), run.entry(),
                        Duration.ofSeconds(now - run.startSeconds()), false, Runs.UNKNOWN));
                continue;
            }
            RunningPlacement placement = placements.get(run.job().id());
            Runs runs = history.runs(run.job(), placement != null && placement.maxRuntime() != null
                    ? placement.maxRuntime() : run.job().maxRuntime());
            if (runs.sweep() != null) {
                sweeps.add(runs.sweep());
            }
            running.add(new Situation.Running<>(run.job().id(), run.team(), run.entry(),
                    Duration.ofSeconds(now - run.startSeconds()), run.preemptedAt() >= 0, runs,
                    placement));
        }
        var waiting = new ArrayList<Situation.Waiting<String>>(step.pending().size());
        step.pending().forEach((queued, job) -> {
            // the maximum run time the job declares under the policy (to borrow, where guarantees are lent)
            Duration declared = queued.request().maxRuntime();
            Runs runs = history.runs(job, declared != null ? declared : job.maxRuntime());
            if (runs.sweep() != null) {
                sweeps.add(runs.sweep());
            }
            waiting.add(new Situation.Waiting<>(queued, runs, null));
        });
        Map<String, List<Duration>> sweepRuns = new HashMap<>();
        history.sweepRuns().forEach((sweep, runs) -> {
            if (sweeps.contains(sweep)) {
                sweepRuns.put(sweep, runs);
            }
        });
        Map<String, TeamShare> shares = rules.fairShare() ? step.ledger().shares(at, rules.shareHalfLife()) : Map.of();
        return new Situation<>(at, rules, capacity.offerings(), capacity.plans(), capacity.teams(), shares, sweepRuns,
                running, waiting, arrivals(step, jobs), step.sharing());
    }

    /** The jobs the forecast expects to come, under the settings' model, from the submissions before now only. */
    private List<Situation.Waiting<String>> arrivals(QueueReplay.Step step, List<ReplayJob> jobs) {
        if (settings.arrivals() == Arrivals.NONE) {
            return List.of();
        }
        long now = step.now();
        long day = 86_400;
        var arrivals = new ArrayList<Situation.Waiting<String>>();
        int low = 0;
        int end = jobs.size();
        while (low < end) { // the first job submitted after now
            int mid = (low + end) >>> 1;
            if (jobs.get(mid).submitSeconds() > now) {
                end = mid;
            } else {
                low = mid + 1;
            }
        }
        for (int i = end - 1; i >= 0 && jobs.get(i).submitSeconds() > now - day; i--) {
            ReplayJob job = jobs.get(i);
            Runs runs = step.history().runs(job, job.maxRuntime());
            Runs unswept = new Runs(runs.maxRuntime(), runs.hint(), null, runs.typical(), runs.pool());
            for (int k = 1; k <= settings.arrivalDays(); k++) {
                QueuedRequest<String> queued = job.queued(job.preferences(new Policy.PreferenceLists()));
                arrivals.add(new Situation.Waiting<>(new QueuedRequest<>(job.id() + "+" + k + "d", queued.request(),
                        queued.priority(), VirtualTime.at(job.submitSeconds() + k * day), queued.fallbackAfter(), null),
                        unswept, null));
            }
        }
        return arrivals;
    }

    /**
     * The naive estimate's wait and its interval: the job's place in the line of waiting jobs whose first choice is
     * its first choice's type (1 for the first), times the platform's mean run (p10 and p90 runs for the interval),
     * over the instances of the type.
     */
    private long[] naive(ReplayJob job, QueueReplay.Step step, Policy policy) {
        String type = job.preferences(policy).get(0).instanceType();
        QueuedRequest<String> mine = job.queued(job.preferences(policy));
        var order = QueuedRequest.<String>queueOrder();
        long ahead = step.pending().keySet().stream()
                .filter(q -> q.request().preferences().get(0).instanceType().equals(type) && order.compare(q, mine) < 0)
                .count();
        int instances = fleet.offerings().stream().filter(k -> k.instanceType().equals(type)).mapToInt(fleet::total).sum();
        long[] runs = step.history().platform().sorted();
        if (runs.length == 0 || instances == 0) {
            return new long[] {-1, -1, -1};
        }
        double mean = Arrays.stream(runs).average().orElse(0);
        long p10 = runs[(int) Math.floor(0.1 * (runs.length - 1))];
        long p90 = runs[(int) Math.ceil(0.9 * (runs.length - 1))];
        double place = ahead + 1.0;
        return new long[] {Math.round(place * p10 / instances), Math.round(place * mean / instances),
            Math.round(place * p90 / instances)};
    }

    /** Runs compared whole: which job started when, where. */
    private static final class Fixed {
        static Map<String, String> starts(PolicyRun run) {
            var starts = new LinkedHashMap<String, String>();
            run.runs().forEach(r -> starts.put(r.job().id(), r.startSeconds() + ":" + r.choice() + ":"
                    + r.entry().offering().describe()));
            return starts;
        }
    }
}
