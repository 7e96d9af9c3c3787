package io.spillover.replay;

import io.spillover.catalog.Catalog;
import io.spillover.placement.Capacity;
import io.spillover.placement.ExpectedRuns;
import io.spillover.placement.OfferingKey;
import io.spillover.placement.OfferingState;
import io.spillover.placement.Placement;
import io.spillover.placement.PlanState;
import io.spillover.placement.PlanStatus;
import io.spillover.placement.PreferenceEntry;
import io.spillover.placement.QueuePass;
import io.spillover.placement.QueuePolicy;
import io.spillover.placement.QueuedRequest;
import io.spillover.placement.RunningPlacement;
import io.spillover.placement.TeamShare;
import io.spillover.placement.TeamState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * When each pending job will most likely start, and on which entry: the production {@link QueuePass} run forward in
 * virtual time from a {@link Situation}, as the scheduler would serve the queue, once per sample, with run times
 * drawn from what is known now (never a run that has not ended): a running job's rest from the runs known for it (its
 * sweep's ended runs, else its profile's, team's or the platform's latest, scaled to its user's hint if it gave one)
 * given how long it has run already, capped by its maximum run time; likewise every waiting job's run. Each sample is
 * one possible future; a job's p10, p50 and p90 are over the samples, its entry the one it took most often. One
 * forecast estimates every waiting job at once.
 *
 * <p>Within a sample the simulation is the scheduler's: ends give their instances back, plans open and close at their
 * window's edges, a waiting job's patience opens its next entry on time, and a pass decides the queue under the
 * policy, ranking by the run the scheduler would expect then (a sweep's members that end in the sample teach it the
 * rest's runs, as they would the scheduler). Two things keep it fast and change no decision of a pass (ForecastTest
 * compares): the pass is handed, of each line of alike jobs (one team, priority, list, patience and run evidence,
 * which the pass ranks by submission), only as many of its first as the free instances and holds could take, and
 * none of a line none of whose entries could fit.
 * Jobs are not stopped at their maximum pending time in a sample: an estimate past a job's deadline says so.
 *
 * <p>Where the situation shares guarantees ({@link Situation#sharing}), the passes borrow and reclaim as the
 * scheduler's do: each pass's capacity holds the running placements, each pass gets the last one's claims, a run
 * that a reclaim preempts ends after the grace, and a job the sample started and a reclaim stopped waits again for
 * the rest of its run. A job running in the situation that a reclaim stops is not requeued (the situation does not
 * hold its request): its rest is dropped.
 *
 * <p>Pure like the core: the caller hands in the situation and its time; the samples draw from a fixed seed, each
 * job's draws keyed by its id, so the same situation gives the same estimates and a change elsewhere moves a job's
 * estimate only as far as it changes its future.
 */
public final class Forecast {

    /** How many futures a forecast samples. */
    public static final int SAMPLES = 16;
    /** The fewest it samples, however long the queue. */
    public static final int MIN_SAMPLES = 4;
    /** The queue passes a forecast's samples may run together before it takes fewer samples. */
    public static final long PASS_BUDGET = 64_000;
    /** How far ahead a forecast looks: a job that starts in no sample within it has no estimate. */
    public static final Duration HORIZON = Duration.ofDays(60);
    /** A run known by nothing at all (no run has ended on the platform yet) counts this long. */
    public static final Duration UNKNOWN_RUN = Duration.ofHours(1);
    static final long SEED = 0x5EED_F0CA57L;

    private final Catalog catalog;
    private final Placement placement;
    private final int samples;
    private final long horizonSeconds;
    private final boolean exact;

    public Forecast(Catalog catalog) {
        this(catalog, SAMPLES, HORIZON);
    }

    public Forecast(Catalog catalog, int samples, Duration horizon) {
        this(catalog, samples, horizon, false);
    }

    /** @param exact hand every pass the whole queue (slow; for checking that the lines' shortcut changes nothing) */
    Forecast(Catalog catalog, int samples, Duration horizon, boolean exact) {
        if (samples < 1) {
            throw new IllegalArgumentException("a forecast needs at least one sample");
        }
        this.catalog = catalog;
        this.placement = new Placement(catalog);
        this.samples = samples;
        this.horizonSeconds = horizon.toSeconds();
        this.exact = exact;
    }

    /**
     * Every waiting job's estimate.
     *
     * @param passes how many queue passes the samples ran, and the jobs they handed the core: the forecast's cost
     */
    public record Result<I>(Map<I, StartEstimate> estimates, long passes, long decisions) {
    }

    public <I extends Comparable<I>> Result<I> estimate(Situation<I> situation) {
        return estimate(situation, null, Map.of(), () -> { });
    }

    /**
     * @param only the waiting jobs to estimate (each sample ends once they have all started), null for all
     */
    public <I extends Comparable<I>> Result<I> estimate(Situation<I> situation, Set<I> only) {
        return estimate(situation, only, Map.of());
    }

    /**
     * For measuring only how much of a forecast's miss is the run times: each job's true run, by id, drawn instead
     * of what is known of it (the queue still ranks by what is known).
     *
     * @param trueRuns seconds each job runs in all, running or waiting; a job not in it is drawn as usual
     */
    <I extends Comparable<I>> Result<I> estimate(Situation<I> situation, Set<I> only, Map<I, Long> trueRuns) {
        return estimate(situation, only, trueRuns, () -> { });
    }

    /**
     * Every waiting job's estimate, handing control back between samples: a caller that shares the machine with work
     * that comes first (the scheduler's) waits there while that work runs.
     *
     * @param between called before each sample but the first
     */
    public <I extends Comparable<I>> Result<I> estimate(Situation<I> situation, Runnable between) {
        return estimate(situation, null, Map.of(), between);
    }

    private <I extends Comparable<I>> Result<I> estimate(Situation<I> situation, Set<I> only, Map<I, Long> trueRuns,
                                                         Runnable between) {
        var first = new Model<>(situation, only, samples, trueRuns);
        var sample = new Sample<>(first, 0);
        sample.run();
        // A long queue costs a pass per start in every sample: past the budget, fewer samples (its sum of many runs
        // varies less than one run does).
        int affordable = (int) Math.max(Math.min(samples, MIN_SAMPLES),
                Math.min(samples, PASS_BUDGET / Math.max(1, sample.passes)));
        Model<I> model = affordable == samples ? first : new Model<>(situation, only, affordable, trueRuns);
        long passes = 0;
        long decisions = 0;
        for (int s = 0; s < model.samples; s++) {
            if (s > 0 || model != first) {
                between.run();
                sample = new Sample<>(model, s);
                sample.run();
            }
            passes += sample.passes;
            decisions += sample.decisions;
        }
        return new Result<>(model.estimates(), passes, decisions);
    }

    /** How a job's run time is known, for its draw and for the words of an estimate's basis. */
    private enum Known { SWEEP, HINT, POOL, MAX_RUNTIME, NOTHING }

    /** A job's run evidence made ready to draw from. */
    private record Drawn(RunDraw draw, Known known, String words) {
    }

    /** One waiting job (or arrival) of the situation, as every sample sees it. */
    private static final class Job<I extends Comparable<I>> {
        final int index;
        final Situation.Waiting<I> waiting;
        final QueuedRequest<I> request;
        final long arrives;
        final boolean target;
        final Drawn drawn;
        Object line;

        Job(int index, Situation.Waiting<I> waiting, long arrives, boolean target, Drawn drawn) {
            this.index = index;
            this.waiting = waiting;
            this.request = waiting.job();
            this.arrives = arrives;
            this.target = target;
            this.drawn = drawn;
        }

        Runs runs() {
            return waiting.runs();
        }
    }

    /** What every sample shares: the situation indexed, and what the samples found, per target. */
    private final class Model<I extends Comparable<I>> {
        final Situation<I> situation;
        final QueuePass pass;
        /** Whether the passes lend, borrow and reclaim: then each sample keeps the running placements. */
        final boolean sharing;
        final Map<I, Job<I>> jobById = new HashMap<>();
        final Instant now;
        final List<OfferingKey> keys = new ArrayList<>();
        final Map<OfferingKey, Integer> keyIndex = new HashMap<>();
        final Map<String, TeamState> teams = new LinkedHashMap<>();
        final Map<String, PlanState> plans = new LinkedHashMap<>();
        final List<Job<I>> jobs = new ArrayList<>();
        final List<Situation.Running<I>> running;
        final Drawn[] runningDrawn;
        final int targets;
        final long[][] starts;
        final int[][] entries;
        final int[][] offerings;
        final int[][] ahead;
        final long[][] runningEnds;
        final Map<String, long[]> sweepEnded = new HashMap<>();
        final Map<String, List<Integer>> sweepRunning = new HashMap<>();
        private final Map<Object, Drawn> draws = new HashMap<>();
        private final Map<RunPool, RunDraw> pools = new IdentityHashMap<>();

        final int samples;

        Model(Situation<I> situation, Set<I> only, int samples, Map<I, Long> trueRuns) {
            this.samples = samples;
            this.situation = situation;
            this.pass = new QueuePass(placement, situation.policy(), situation.sharing());
            this.sharing = situation.sharing().enabled();
            this.now = situation.now();
            for (OfferingState offering : situation.offerings()) {
                keyIndex.put(offering.key(), keys.size());
                keys.add(offering.key());
            }
            situation.teams().forEach(t -> teams.put(t.team(), t));
            situation.plans().forEach(p -> plans.put(p.name(), p));
            this.running = situation.running().stream()
                    .sorted(Comparator.comparing(r -> r.id())).toList();
            for (int r = 0; r < running.size(); r++) {
                String sweep = running.get(r).runs().sweep();
                if (sweep != null) {
                    sweepRunning.computeIfAbsent(sweep, k -> new ArrayList<>()).add(r);
                }
            }
            situation.sweepRuns().forEach((sweep, runs) -> sweepEnded.put(sweep,
                    runs.stream().mapToLong(d -> Math.max(1, d.toSeconds())).toArray()));
            this.runningDrawn = new Drawn[running.size()];
            for (int r = 0; r < running.size(); r++) {
                runningDrawn[r] = drawn(running.get(r).runs(), trueRuns.get(running.get(r).id()));
            }
            List<Situation.Waiting<I>> waiting = situation.waiting().stream()
                    .sorted(Comparator.comparing(w -> w.job(), QueuedRequest.queueOrder())).toList();
            int targetCount = 0;
            for (Situation.Waiting<I> w : waiting) {
                boolean target = only == null || only.contains(w.job().id());
                if (target) {
                    targetCount++;
                }
            }
            this.targets = targetCount;
            for (Situation.Waiting<I> w : waiting) {
                boolean target = only == null || only.contains(w.job().id());
                jobs.add(new Job<>(jobs.size(), w, 0, target, drawn(w.runs(), trueRuns.get(w.job().id()))));
            }
            for (Situation.Waiting<I> a : situation.arrivals().stream()
                    .sorted(Comparator.comparing(w -> w.job(), QueuedRequest.queueOrder())).toList()) {
                long at = Math.max(0, seconds(a.job().submittedAt()));
                jobs.add(new Job<>(jobs.size(), a, at, false, drawn(a.runs())));
            }
            jobs.forEach(job -> jobById.put(job.request.id(), job));
            starts = new long[samples][];
            entries = new int[samples][];
            offerings = new int[samples][];
            ahead = new int[samples][];
            runningEnds = new long[samples][];
        }

        long seconds(Instant at) {
            long millis = Duration.between(now, at).toMillis();
            return millis <= 0 ? 0 : (millis + 999) / 1000;
        }

        Instant at(long seconds) {
            return now.plusSeconds(seconds);
        }

        /** The draw for a job: its true run where the caller knows it ({@link #estimate(Situation, Set, Map)}). */
        Drawn drawn(Runs runs, Long trueRun) {
            return trueRun == null ? drawn(runs)
                    : new Drawn(RunDraw.point(Math.max(1, trueRun)), Known.HINT, "its true run");
        }

        /** The draw for a job's evidence, made once per sweep, pool and hint. */
        Drawn drawn(Runs runs) {
            long[] ended = runs.sweep() == null ? null : sweepEnded.get(runs.sweep());
            if (ended != null && ended.length > 0) {
                return draws.computeIfAbsent("sweep\n" + runs.sweep(), k -> {
                    var going = new ArrayList<Long>();
                    for (int r : sweepRunning.getOrDefault(runs.sweep(), List.of())) {
                        going.add(Math.max(1, running.get(r).ranFor().toSeconds()));
                    }
                    return new Drawn(RunDraw.kaplanMeier(ended, going.stream().mapToLong(Long::longValue).toArray()),
                            Known.SWEEP, "its sweep's runs");
                });
            }
            if (runs.hint() != null) {
                long hint = Math.max(1, runs.hint().toSeconds());
                if (runs.pool().isEmpty()) {
                    return draws.computeIfAbsent("hint\n" + hint, k -> new Drawn(RunDraw.point(hint), Known.HINT,
                            "its user's hint"));
                }
                return draws.computeIfAbsent(List.of(runs.pool().basis(), System.identityHashCode(runs.pool()), hint),
                        k -> new Drawn(pool(runs.pool()).scaled((double) hint / runs.pool().median()), Known.HINT,
                                "its user's hint"));
            }
            if (!runs.pool().isEmpty()) {
                return draws.computeIfAbsent(runs.pool(), k -> new Drawn(pool(runs.pool()), Known.POOL,
                        runs.pool().basis()));
            }
            if (runs.maxRuntime() != null) {
                long max = Math.max(1, runs.maxRuntime().toSeconds());
                return draws.computeIfAbsent("max\n" + max, k -> new Drawn(RunDraw.point(max), Known.MAX_RUNTIME,
                        "its maximum run time"));
            }
            return draws.computeIfAbsent("nothing", k -> new Drawn(RunDraw.point(UNKNOWN_RUN.toSeconds()),
                    Known.NOTHING, "an hour each, as no run has ended yet"));
        }

        /**
         * The pool's runs by Kaplan and Meier, its running jobs counted as runs at least as long as they have gone:
         * the latest ended runs alone are mostly short ones (a long run ends late), and would end the long runs
         * going on now too soon.
         */
        RunDraw pool(RunPool pool) {
            return pools.computeIfAbsent(pool, p -> {
                long[] going = situation.running().stream().filter(r -> r.runs().pool() == p)
                        .mapToLong(r -> Math.max(1, r.ranFor().toSeconds())).toArray();
                return going.length == 0 ? RunDraw.empirical(p.sorted()) : RunDraw.kaplanMeier(p.sorted(), going);
            });
        }

        Map<I, StartEstimate> estimates() {
            var estimates = new LinkedHashMap<I, StartEstimate>();
            for (Job<I> job : jobs) {
                if (job.target) {
                    estimates.put(job.request.id(), estimate(job));
                }
            }
            return estimates;
        }

        private StartEstimate estimate(Job<I> job) {
            int j = job.index;
            Integer[] order = new Integer[samples];
            for (int s = 0; s < samples; s++) {
                order[s] = s;
            }
            Arrays.sort(order, Comparator.comparingLong(s -> starts[s][j]));
            long[] sorted = new long[samples];
            for (int s = 0; s < samples; s++) {
                sorted[s] = starts[order[s]][j];
            }
            int[] tally = new int[io.spillover.placement.PreferenceList.MAX_ENTRIES];
            for (int s = 0; s < samples; s++) {
                if (entries[s][j] >= 0) {
                    tally[entries[s][j]]++;
                }
            }
            Integer entry = null;
            for (int e = 0; e < tally.length; e++) {
                if (tally[e] > 0 && (entry == null || tally[e] > tally[entry])) {
                    entry = e;
                }
            }
            Instant p10 = quantile(sorted, 0.1);
            Instant p50 = quantile(sorted, 0.5);
            Instant p90 = quantile(sorted, 0.9);
            Instant deadline = job.waiting.deadline();
            boolean past = deadline != null && p50 != null && p50.isAfter(deadline);
            int median = order[(samples - 1) / 2];
            return new StartEstimate(p10, p50, p90, entry, basis(job, median, p50 == null, past), past);
        }

        /** Interpolated between the samples; null when it reaches a sample in which the job did not start. */
        private Instant quantile(long[] sorted, double q) {
            double position = q * (sorted.length - 1);
            int low = (int) Math.floor(position);
            int high = (int) Math.ceil(position);
            if (sorted[high] == Long.MAX_VALUE) {
                return null;
            }
            double seconds = sorted[low] + (sorted[high] - sorted[low]) * (position - low);
            return now.plusMillis(Math.round(seconds * 1000));
        }

        private String basis(Job<I> job, int s, boolean never, boolean past) {
            String deadline = past ? "; its maximum pending time runs out first, at "
                    + WHEN.format(job.waiting.deadline()) : "";
            if (never || offerings[s][job.index] < 0) {
                return "no entry can start within " + QueuePass.words(Duration.ofSeconds(horizonSeconds))
                        + " as things stand" + deadline;
            }
            OfferingKey offering = keys.get(offerings[s][job.index]);
            int entry = entries[s][job.index];
            int before = ahead[s][job.index];
            var line = new StringBuilder();
            line.append(before == 0 ? "first in line" : before + (before == 1 ? " job" : " jobs") + " ahead")
                    .append(" on ").append(offering.isPlan() ? "plan " + offering.planName() : offering.instanceType());
            if (entry > 0) {
                line.append(" (entry ").append(entry).append(')');
            }
            long soonest = Long.MAX_VALUE;
            long latest = 0;
            int there = 0;
            var words = new LinkedHashMap<String, Integer>();
            for (int r = 0; r < running.size(); r++) {
                if (running.get(r).entry().offering().equals(offering)) {
                    there++;
                    soonest = Math.min(soonest, runningEnds[s][r]);
                    latest = Math.max(latest, runningEnds[s][r]);
                    words.merge(runningDrawn[r].words(), 1, Integer::sum);
                }
            }
            if (there > 0) {
                String by = words.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
                line.append("; ").append(there).append(" running there end")
                        .append(there == 1 ? "s" : "").append(" in ~").append(QueuePass.words(Duration.ofSeconds(soonest)))
                        .append(there > 1 && latest != soonest ? "–" + QueuePass.words(Duration.ofSeconds(latest)) : "")
                        .append(" by ").append(by);
            } else {
                PlanState plan = offering.isPlan() ? plans.get(offering.planName()) : null;
                if (plan != null && plan.status() == PlanStatus.SCHEDULED && plan.startTime() != null) {
                    line.append("; the plan starts at ").append(WHEN.format(plan.startTime()));
                }
            }
            return line + deadline;
        }
    }

    private static final java.time.format.DateTimeFormatter WHEN =
            java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'").withZone(java.time.ZoneOffset.UTC);

    /**
     * A run in a sample: a running job of the situation's ({@code member} {@code -1 - r}) or a waiting job started in
     * it ({@code member} its index).
     *
     * @param placement  what a reclaim knows of it, when the situation shares guarantees; null otherwise
     * @param naturalEnd when it ends if no reclaim stops it
     */
    private record Run(long end, long start, int offering, String team, PreferenceEntry entry, String sweep, int member,
                       int seq, RunningPlacement placement, long naturalEnd) {
    }

    /** What a line of alike jobs shares: the pass ranks its members by submission alone. */
    private record LineKey(String team, int priority, Object request, Duration fallbackAfter, Duration maxRuntime,
                           Duration hint, String sweep, Duration typical) {
    }

    /** Jobs of a line, in queue order, not yet started. */
    private static final class Line<I extends Comparable<I>> {
        final boolean strict;
        final TreeMap<QueuedRequest<I>, Job<I>> members = new TreeMap<>(QueuedRequest.queueOrder());

        Line(boolean strict) {
            this.strict = strict;
        }
    }

    /** A sweep's runs as the scheduler would see them at a moment of the sample. */
    private static final class SweepState {
        final ArrayList<Long> ended = new ArrayList<>();
        final Map<Integer, Long> running = new LinkedHashMap<>();
        long version;
    }

    /** One future. */
    private final class Sample<I extends Comparable<I>> {
        final Model<I> model;
        final int s;
        final int[] inUse;
        final int[] totals;
        final Map<String, Map<String, Integer>> teamInstances = new HashMap<>();
        final Map<String, int[]> teamCounts = new HashMap<>();
        final Map<String, PlanState> plans;
        final Map<Object, Line<I>> lines = new LinkedHashMap<>();
        final PriorityQueue<Run> runs = new PriorityQueue<>(Comparator.comparingLong(Run::end).thenComparingInt(Run::seq));
        final TreeSet<Long> revisits = new TreeSet<>();
        final TreeSet<Long> boundaries = new TreeSet<>();
        final PriorityQueue<Job<I>> arrivals = new PriorityQueue<>(Comparator.comparingLong((Job<I> j) -> j.arrives)
                .thenComparingInt(j -> j.index));
        final Map<String, SweepState> sweeps = new HashMap<>();
        final Map<String, Double> charged = new HashMap<>();
        /** With sharing: the runs holding instances, by their placement's job, as a reclaim chooses from them. */
        final Map<String, Run> live = new HashMap<>();
        /** With sharing: the claims of the last pass, handed to the next as the scheduler hands them. */
        Map<I, QueuePass.Claim> claims = Map.of();
        /** With sharing: what is left of the runs of jobs a reclaim stopped, by job, for when they start again. */
        final Map<Integer, Long> rest = new HashMap<>();
        final int[] offeringStarts;
        int seq;
        int targetsLeft;
        long passes;
        long decisions;

        Sample(Model<I> model, int s) {
            this.model = model;
            this.s = s;
            int n = model.keys.size();
            inUse = new int[n];
            totals = new int[n];
            offeringStarts = new int[n];
            int o = 0;
            for (OfferingState offering : model.situation.offerings()) {
                inUse[o] = offering.inUse();
                totals[o] = offering.total();
                if (offering.unavailableUntil() != null && offering.unavailableUntil().isAfter(model.now)) {
                    boundaries.add(model.seconds(offering.unavailableUntil()));
                }
                o++;
            }
            model.teams.forEach((team, state) -> {
                teamInstances.put(team, new HashMap<>(state.instancesInUse()));
                teamCounts.put(team, new int[] {state.acceleratorsInUse(), state.jobsInUse()});
            });
            plans = new LinkedHashMap<>(model.plans);
            for (PlanState plan : plans.values()) {
                if (plan.status() == PlanStatus.SCHEDULED && plan.startTime() != null) {
                    boundaries.add(model.seconds(plan.startTime()));
                }
                if ((plan.status() == PlanStatus.SCHEDULED || plan.status() == PlanStatus.ACTIVE)
                        && plan.endTime() != null) {
                    boundaries.add(model.seconds(plan.endTime()));
                }
            }
            model.starts[s] = new long[model.jobs.size()];
            model.entries[s] = new int[model.jobs.size()];
            model.offerings[s] = new int[model.jobs.size()];
            model.ahead[s] = new int[model.jobs.size()];
            model.runningEnds[s] = new long[model.running.size()];
            Arrays.fill(model.starts[s], Long.MAX_VALUE);
            Arrays.fill(model.entries[s], -1);
            Arrays.fill(model.offerings[s], -1);
            model.sweepEnded.forEach((sweep, ended) -> {
                SweepState state = sweep(sweep);
                int from = Math.max(0, ended.length - ExpectedRuns.SWEEP_RUNS);
                for (int i = from; i < ended.length; i++) {
                    state.ended.add(ended[i]);
                }
            });
            for (int r = 0; r < model.running.size(); r++) {
                Situation.Running<I> running = model.running.get(r);
                long ran = running.ranFor().toSeconds();
                long end;
                if (running.stopping()) {
                    end = 1;
                } else {
                    long whole = capped(model.runningDrawn[r].draw().draw(uniform(running.id()), ran), running.runs());
                    end = Math.max(1, whole - ran);
                }
                end = Math.min(end, planEnd(running.entry()));
                model.runningEnds[s][r] = end;
                Integer offering = model.keyIndex.get(running.entry().offering());
                RunningPlacement placement = model.sharing ? placement(running) : null;
                Run run = new Run(end, -ran, offering == null ? -1 : offering, running.team(), running.entry(),
                        running.runs().sweep(), -1 - r, seq++, placement, end);
                runs.add(run);
                if (placement != null) {
                    live.put(placement.job(), run);
                }
                if (running.runs().sweep() != null) {
                    sweep(running.runs().sweep()).running.put(-1 - r, -ran);
                }
            }
            for (Job<I> job : model.jobs) {
                if (job.arrives <= 0) {
                    join(job);
                } else {
                    arrivals.add(job);
                }
                if (job.target) {
                    targetsLeft++;
                }
            }
            Capacity capacity = capacity();
            for (Job<I> job : model.jobs) {
                Instant opens = model.pass.revisitAt(job.request, capacity, model.now);
                if (opens != null) {
                    revisits.add(model.seconds(opens));
                }
            }
        }

        /** A running job of the situation as a reclaim sees it: as the scheduler read it, else a plain placement. */
        RunningPlacement placement(Situation.Running<I> running) {
            if (running.placement() != null) {
                return running.placement();
            }
            return new RunningPlacement(String.valueOf(running.id()), running.team(), running.entry().offering(),
                    running.entry().instanceCount(), 0, model.now.minus(running.ranFor()), false, false,
                    running.runs().maxRuntime(), 0, running.stopping() ? model.now : null);
        }

        double uniform(Object id) {
            long mixed = SEED * 0x9E3779B97F4A7C15L + (s + 1) * 0xC2B2AE3D27D4EB4FL + id.hashCode() * 0x165667B19E3779F9L;
            return new SplittableRandom(mixed).nextDouble();
        }

        /** A run never outlasts its maximum run time. */
        long capped(long seconds, Runs runs) {
            return runs.maxRuntime() == null ? seconds : Math.min(seconds, Math.max(1, runs.maxRuntime().toSeconds()));
        }

        /** When the entry's plan ends, in seconds from now; never for on-demand capacity. */
        long planEnd(PreferenceEntry entry) {
            PlanState plan = entry.trainingPlan() == null ? null : model.plans.get(entry.trainingPlan());
            return plan == null || plan.endTime() == null ? Long.MAX_VALUE : Math.max(1, model.seconds(plan.endTime()));
        }

        SweepState sweep(String sweep) {
            return sweeps.computeIfAbsent(sweep, k -> new SweepState());
        }

        void join(Job<I> job) {
            Object key = job.line;
            if (key == null) {
                boolean strict = model.teams.containsKey(job.request.request().team())
                        && model.teams.get(job.request.request().team()).strictFifo();
                Runs runs = job.runs();
                key = strict ? "strict\n" + job.request.request().team()
                        : new LineKey(job.request.request().team(), job.request.priority(), job.request.request(),
                        job.request.fallbackAfter(), runs.maxRuntime(), runs.hint(), runs.sweep(), runs.typical());
                job.line = key;
            }
            boolean strict = key instanceof String;
            lines.computeIfAbsent(key, k -> new Line<>(strict)).members.put(job.request, job);
        }

        void run() {
            long t = 0;
            pass(t);
            while (targetsLeft > 0) {
                long next = Long.MAX_VALUE;
                if (!runs.isEmpty()) {
                    next = runs.peek().end();
                }
                if (!revisits.isEmpty()) {
                    next = Math.min(next, revisits.first());
                }
                if (!boundaries.isEmpty()) {
                    next = Math.min(next, boundaries.first());
                }
                if (!arrivals.isEmpty()) {
                    next = Math.min(next, arrivals.peek().arrives);
                }
                if (next == Long.MAX_VALUE || next > horizonSeconds) {
                    break;
                }
                t = Math.max(t + 1, next);
                advancePlans(t);
                while (!runs.isEmpty() && runs.peek().end() <= t) {
                    release(runs.poll(), t);
                }
                while (!arrivals.isEmpty() && arrivals.peek().arrives <= t) {
                    join(arrivals.poll());
                }
                revisits.headSet(t, true).clear();
                boundaries.headSet(t, true).clear();
                pass(t);
            }
        }

        void advancePlans(long t) {
            for (Map.Entry<String, PlanState> named : plans.entrySet()) {
                PlanState plan = named.getValue();
                PlanStatus status = plan.status();
                if (status == PlanStatus.SCHEDULED && plan.startTime() != null && model.seconds(plan.startTime()) <= t) {
                    status = PlanStatus.ACTIVE;
                }
                if ((status == PlanStatus.ACTIVE) && plan.endTime() != null && model.seconds(plan.endTime()) <= t) {
                    status = PlanStatus.EXPIRED;
                }
                if (status != plan.status()) {
                    named.setValue(new PlanState(plan.name(), plan.instanceType(), plan.region(), status,
                            plan.startTime(), plan.endTime(), plan.teams()));
                }
            }
        }

        void release(Run run, long t) {
            boolean stopped = run.placement() != null && run.placement().stopping() && run.end() < run.naturalEnd();
            if (run.placement() != null) {
                live.remove(run.placement().job(), run);
            }
            if (run.offering() >= 0) {
                inUse[run.offering()] = Math.max(0, inUse[run.offering()] - run.entry().instanceCount());
            }
            Map<String, Integer> instances = teamInstances.get(run.team());
            if (instances != null) {
                instances.computeIfPresent(run.entry().instanceType(),
                        (type, n) -> Math.max(0, n - run.entry().instanceCount()));
                int[] counts = teamCounts.get(run.team());
                counts[0] = Math.max(0, counts[0] - run.entry().instanceCount() * accelerators(run.entry()));
                counts[1] = Math.max(0, counts[1] - 1);
            }
            if (stopped && run.member() >= 0) {
                // a reclaim stopped it: it waits again at its place, to run the rest of its run (its checkpoints)
                Job<I> job = model.jobs.get(run.member());
                rest.put(job.index, Math.max(1, run.naturalEnd() - run.end()));
                join(job);
            }
            if (run.sweep() != null && stopped) {
                sweep(run.sweep()).running.remove(run.member());
            } else if (run.sweep() != null) {
                SweepState sweep = sweep(run.sweep());
                sweep.running.remove(run.member());
                sweep.ended.add(Math.max(1, run.end() - run.start()));
                if (sweep.ended.size() > ExpectedRuns.SWEEP_RUNS) {
                    sweep.ended.remove(0);
                }
                sweep.version++;
            }
        }

        int accelerators(PreferenceEntry entry) {
            return catalog.find(entry.instanceType()).map(t -> t.acceleratorCount()).orElse(0);
        }

        Capacity capacity() {
            var offerings = new ArrayList<OfferingState>(inUse.length);
            int o = 0;
            for (OfferingState offering : model.situation.offerings()) {
                offerings.add(new OfferingState(offering.key(), totals[o], inUse[o], offering.unavailableUntil(),
                        offering.unavailableCause()));
                o++;
            }
            var teams = new ArrayList<TeamState>(model.teams.size());
            model.teams.forEach((team, state) -> {
                int[] counts = teamCounts.get(team);
                teams.add(state.withUse(teamInstances.get(team), counts[0], counts[1]));
            });
            if (!model.sharing) {
                return new Capacity(offerings, plans.values(), teams);
            }
            var placements = new ArrayList<RunningPlacement>(live.size());
            live.values().forEach(run -> placements.add(run.placement()));
            return new Capacity(offerings, plans.values(), teams, placements);
        }

        void pass(long t) {
            Capacity capacity = capacity();
            int free = 0;
            for (OfferingState offering : capacity.offerings()) {
                free += offering.available();
                if (model.sharing) {
                    free += capacity.reclaimable(offering.key()); // a lender's job may claim what borrowers hold
                }
            }
            if (!exact && free == 0 || lines.isEmpty()) {
                return;
            }
            Instant at = model.at(t);
            QueuePolicy policy = model.situation.policy();
            var chosen = new ArrayList<Line<I>>();
            var takes = new ArrayList<Integer>();
            for (Line<I> line : lines.values()) {
                if (line.members.isEmpty()) {
                    continue;
                }
                Job<I> head = line.members.firstEntry().getValue();
                int take;
                if (exact) {
                    take = Integer.MAX_VALUE;
                } else if (line.strict) {
                    take = free + 1; // its first that cannot start holds back the rest; only its head may hold
                } else {
                    int entries = head.request.request().preferences().size();
                    int room = 0;
                    var seen = new java.util.HashSet<OfferingKey>();
                    for (PreferenceEntry entry : head.request.request().preferences().entries()) {
                        if (seen.add(entry.offering())) {
                            room += capacity.free(entry.offering())
                                    + (model.sharing ? capacity.reclaimable(entry.offering()) : 0);
                        }
                    }
                    boolean mayHold = policy.reserveAfter() != null && minimumCount(head.request) > 1
                            && !head.request.submittedAt().plus(policy.reserveAfter()).isAfter(at);
                    if (!mayHold && (room == 0 || !capacity.anyEntryCouldFit(head.request.request()))) {
                        continue;
                    }
                    // each start takes an instance at least; a holder holds on one offering, so a line holds on
                    // its entries' offerings at most
                    take = room + (mayHold ? entries : 0);
                }
                chosen.add(line);
                takes.add(take);
            }
            // The expected run ranks jobs of different lines (and a strict line's jobs); within a line of alike jobs
            // the order is their submission's whatever it is, so a pass of one such line need not work it out.
            boolean ranked = policy.fairShare() || chosen.size() > 1 || chosen.stream().anyMatch(l -> l.strict);
            var fed = new ArrayList<QueuedRequest<I>>();
            var byId = new HashMap<I, Job<I>>();
            var expected = new HashMap<List<Object>, Duration>();
            for (int c = 0; c < chosen.size(); c++) {
                int take = takes.get(c);
                for (Job<I> job : chosen.get(c).members.values()) {
                    if (take-- <= 0) {
                        break;
                    }
                    feed(job, ranked, expected, fed, byId, t);
                }
            }
            // the last pass's claimants are in every pass until they start, as the scheduler keeps them
            for (I claimant : claims.keySet()) {
                Job<I> job = model.jobById.get(claimant);
                if (job != null && !byId.containsKey(claimant) && waiting(job)) {
                    feed(job, true, expected, fed, byId, t);
                }
            }
            if (fed.isEmpty()) {
                return;
            }
            passes++;
            decisions += fed.size();
            Map<String, TeamShare> shares = policy.fairShare() ? shares(t) : Map.of();
            QueuePass.Result<I> result = model.pass.selections(fed, capacity, shares, at, claims);
            if (model.sharing) {
                claims = result.claims();
                for (QueuePass.Preemption<I> preemption : result.preemptions()) {
                    preempt(preemption, t, at);
                }
            }
            for (QueuePass.Outcome<I> outcome : result.outcomes()) {
                Job<I> job = byId.get(outcome.job().id());
                if (outcome.decision().isSelected()) {
                    start(job, outcome, t);
                } else if (outcome.revisitAt() != null) {
                    revisits.add(Math.max(t + 1, model.seconds(outcome.revisitAt())));
                }
            }
        }

        /** Hands the pass the job as the queue holds it, with the run the scheduler would expect at {@code t}. */
        void feed(Job<I> job, boolean ranked, Map<List<Object>, Duration> expected, List<QueuedRequest<I>> fed,
                  Map<I, Job<I>> byId, long t) {
            Runs runs = job.runs();
            Duration run = !ranked ? null : expected.computeIfAbsent(Arrays.asList(runs.maxRuntime(), runs.hint(),
                    runs.sweep(), runs.typical()), k -> runs.expected(known(runs.sweep(), t)));
            fed.add(job.request.withExpectedRuntime(run));
            byId.put(job.request.id(), job);
        }

        /** Whether the job waits in its line (it has not started, or a reclaim stopped it and it waits again). */
        boolean waiting(Job<I> job) {
            Line<I> line = job.line == null ? null : lines.get(job.line);
            return line != null && line.members.containsKey(job.request);
        }

        /** A reclaim stops the run with the grace: its instances come back then, and its job waits again. */
        void preempt(QueuePass.Preemption<I> preemption, long t, Instant at) {
            Run victim = live.get(preemption.victim().job());
            if (victim == null || victim.placement().stopping()) {
                return;
            }
            runs.remove(victim);
            long end = Math.min(victim.end(), Math.max(t + 1, t + model.situation.sharing().grace().toSeconds()));
            Run stopping = new Run(end, victim.start(), victim.offering(), victim.team(), victim.entry(),
                    victim.sweep(), victim.member(), seq++, victim.placement().preempted(at), victim.naturalEnd());
            runs.add(stopping);
            live.put(stopping.placement().job(), stopping);
            if (victim.member() < 0) {
                model.runningEnds[s][-1 - victim.member()] = end;
            }
        }

        ExpectedRuns.Sweep known(String sweep, long t) {
            if (sweep == null) {
                return ExpectedRuns.Sweep.NONE;
            }
            SweepState state = sweeps.get(sweep);
            if (state == null || state.ended.isEmpty() && state.running.isEmpty()) {
                return ExpectedRuns.Sweep.NONE;
            }
            var ended = new ArrayList<Duration>(state.ended.size());
            state.ended.forEach(d -> ended.add(Duration.ofSeconds(d)));
            var running = new ArrayList<Duration>(state.running.size());
            state.running.values().forEach(start -> running.add(Duration.ofSeconds(Math.max(0, t - start))));
            return new ExpectedRuns.Sweep(ended, running);
        }

        Map<String, TeamShare> shares(long t) {
            var shares = new HashMap<String, TeamShare>();
            Duration halfLife = model.situation.policy().shareHalfLife();
            model.situation.shares().forEach((team, share) -> shares.put(team, new TeamShare(share.weight(),
                    TeamShare.decay(share.usage(), model.now, model.at(t), halfLife) + charged.getOrDefault(team, 0.0))));
            charged.forEach((team, charge) -> shares.putIfAbsent(team, new TeamShare(1, charge)));
            return shares;
        }

        void start(Job<I> job, QueuePass.Outcome<I> outcome, long t) {
            int index = outcome.decision().selected().orElseThrow().index();
            PreferenceEntry entry = job.request.request().preferences().get(index);
            Line<I> line = lines.get(job.line);
            line.members.remove(job.request);
            Integer offering = model.keyIndex.get(entry.offering());
            if (offering != null) {
                inUse[offering] += entry.instanceCount();
            }
            String team = job.request.request().team();
            teamInstances.computeIfAbsent(team, k -> new HashMap<>()).merge(entry.instanceType(), entry.instanceCount(),
                    Integer::sum);
            int[] counts = teamCounts.computeIfAbsent(team, k -> new int[2]);
            counts[0] += entry.instanceCount() * accelerators(entry);
            counts[1]++;
            if (model.situation.policy().fairShare()) {
                charged.merge(team, TeamShare.charge(entry.instanceCount() * placement.shareUnits(entry.instanceType()),
                        outcome.job().expectedRuntime(), model.situation.policy().shareHalfLife()), Double::sum);
            }
            Long left = rest.remove(job.index);
            long run = left != null ? left : capped(job.drawn.draw().draw(uniform(job.request.id()), 0), job.runs());
            long end = Math.max(t + 1, Math.min(t + Math.max(1, run), planEnd(entry)));
            String sweep = job.runs().sweep();
            RunningPlacement placement = !model.sharing ? null : new RunningPlacement(String.valueOf(job.request.id()),
                    team, entry.offering(), entry.instanceCount(), job.request.priority(), model.at(t),
                    outcome.decision().borrowed(), job.request.request().preemptible(),
                    job.request.request().maxRuntime(), 0, null);
            Run started = new Run(end, t, offering == null ? -1 : offering, team, entry, sweep, job.index, seq++,
                    placement, end);
            runs.add(started);
            if (placement != null) {
                live.put(placement.job(), started);
            }
            if (sweep != null) {
                sweep(sweep).running.put(job.index, t);
            }
            int j = job.index;
            if (model.starts[s][j] != Long.MAX_VALUE) {
                return; // started before in this sample, and stopped by a reclaim: its estimate is its first start
            }
            model.starts[s][j] = t;
            model.entries[s][j] = index;
            model.offerings[s][j] = offering == null ? -1 : offering;
            if (offering != null) {
                model.ahead[s][j] = offeringStarts[offering]++;
            }
            if (job.target) {
                targetsLeft--;
            }
        }
    }

    private static int minimumCount(QueuedRequest<?> job) {
        return job.request().preferences().entries().stream().mapToInt(PreferenceEntry::instanceCount).min().orElse(0);
    }

}
