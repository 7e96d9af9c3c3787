package io.spillover.replay;

import io.spillover.catalog.Catalog;
import io.spillover.placement.PlanState;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.LongSupplier;

/**
 * Replays a trace under every policy of a configuration, on the same fleet and the same jobs, one policy
 * after the other.
 */
public final class Replay {

    /**
     * The policy whose estimated starts are measured: the platform's default, guarantees lent, borrowed and reclaimed,
     * as the service's forecast models it.
     */
    public static final String ESTIMATED = "spillover";

    private final ReplayConfig config;
    private final Fleet fleet;
    private final TraceModel model;
    private final boolean exact;
    private final LongSupplier stopwatch;
    private final java.util.Set<String> only;

    /**
     * @param exact     hand the core the whole queue and every polling try (slow; for checking the shortcuts)
     * @param stopwatch nanoseconds from some fixed point ({@code System::nanoTime}), to report what each policy's
     *                  replay cost in real time: the replay itself reads no clock
     */
    public Replay(ReplayConfig config, Catalog catalog, boolean exact, LongSupplier stopwatch) {
        this(config, catalog, exact, stopwatch, java.util.Set.of());
    }

    /** @param only the names of the policies to replay, empty for all of the configuration's */
    public Replay(ReplayConfig config, Catalog catalog, boolean exact, LongSupplier stopwatch,
                  java.util.Set<String> only) {
        this.only = java.util.Set.copyOf(only);
        this.config = config;
        this.fleet = Fleet.of(config, catalog);
        this.model = TraceModel.of(config, catalog);
        this.exact = exact;
        this.stopwatch = stopwatch;
    }

    /**
     * @param finished told of each policy as it finishes, with every job's run, for a long run's log and files
     */
    public ReplayResult run(String traceName, List<TraceJob> trace, Window window,
                            BiConsumer<PolicyRun, PolicyReport> finished) {
        return run(traceName, trace, window, null, finished);
    }

    /**
     * @param estimates how to measure the estimated starts on the default policy's replay ({@link EstimateAccuracy}),
     *                  null not to
     */
    public ReplayResult run(String traceName, List<TraceJob> trace, Window window, EstimateAccuracy.Settings estimates,
                            BiConsumer<PolicyRun, PolicyReport> finished) {
        List<TraceJob> selected = window.select(trace);
        JobChoices.Built built = new JobChoices(fleet, model).build(selected);
        var reports = new ArrayList<PolicyReport>();
        PolicyRun measured = null;
        for (Policy policy : config.policies()) {
            if (!only.isEmpty() && !only.contains(policy.name())) {
                continue;
            }
            long start = stopwatch.getAsLong();
            PolicyRun run = run(policy, fleet, built.jobs());
            PolicyReport report = PolicyReport.of(run, fleet, (stopwatch.getAsLong() - start) / 1_000_000);
            reports.add(report);
            finished.accept(run, report);
            if (policy.name().equals(ESTIMATED)) {
                measured = run;
            }
        }
        EstimateReport accuracy = estimates == null || measured == null ? null
                : new EstimateAccuracy(fleet, estimates, stopwatch).measure((Policy.Queued) measured.policy(),
                built.jobs(), measured);
        return new ReplayResult(traceName, config.description(), window.describe(selected.size(), trace.size()),
                trace.size(), selected.size(), built.jobs().size(), built.unplaceable(), built.infeasibleEntries(),
                built.entriesBeyondFive(), offerings(), plans(), quotas(), runtimes(), weights(),
                (int) selected.stream().map(TraceJob::team).distinct().count(), reports,
                Goals.of(reports, config.fairnessGoal(), config.lending()), accuracy);
    }

    private PolicyRun run(Policy policy, Fleet on, List<ReplayJob> jobs) {
        if (policy instanceof Policy.Polling polling) {
            return new PollingReplay(on, exact).run(polling, jobs);
        }
        if (policy instanceof Policy.Uncapped uncapped) {
            return run(uncapped.policy(), on.uncapped(), jobs).as(uncapped);
        }
        return new QueueReplay(on, exact).run(policy, jobs);
    }

    private Map<String, Integer> offerings() {
        var offerings = new LinkedHashMap<String, Integer>();
        fleet.offerings().forEach(k -> offerings.put(k.describe() + (k.isPlan() ? " (" + k.instanceType() + " in "
                + k.region() + ")" : ""), fleet.total(k)));
        return offerings;
    }

    private Map<String, List<String>> plans() {
        var plans = new LinkedHashMap<String, List<String>>();
        for (PlanState plan : fleet.plans()) {
            plans.put(plan.name(), plan.teams().stream().sorted().toList());
        }
        return plans;
    }

    /** Every team's quota: the same for all in the benchmark's fleet. */
    private Map<String, Integer> quotas() {
        return new java.util.TreeMap<>(fleet.otherTeams().orElseThrow().instanceLimits()); // Map.copyOf has no order
    }

    private Map<String, String> runtimes() {
        var runtimes = new LinkedHashMap<String, String>();
        model.types().forEach(t -> runtimes.put(t.instanceType(), t.generation().column() + " / " + t.speedup()));
        return runtimes;
    }

    private Map<String, Double> weights() {
        var weights = new LinkedHashMap<String, Double>();
        model.types().forEach(t -> weights.put(t.instanceType(), t.firstChoiceWeight()));
        return weights;
    }
}
