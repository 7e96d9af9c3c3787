package io.spillover.replay;

import io.spillover.catalog.Catalog;
import io.spillover.catalog.InstanceType;
import io.spillover.catalog.JobKind;
import io.spillover.placement.OfferingKey;
import io.spillover.placement.PlanState;
import io.spillover.placement.PlanStatus;
import io.spillover.placement.TeamState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The capacity a replay runs on, as the placement core sees it: on-demand offerings and ACTIVE training plans
 * with their totals, every team's quota, and how long a trace job runs on each type.
 */
public final class Fleet {

    private final ReplayConfig config;
    private final Catalog catalog;
    private final Map<String, ReplayConfig.TypeSpec> types = new LinkedHashMap<>();
    private final Map<OfferingKey, Integer> totals = new LinkedHashMap<>();
    private final Map<String, PlanState> plans = new LinkedHashMap<>();
    private final Map<String, Integer> quotas = new LinkedHashMap<>();

    public Fleet(ReplayConfig config, Catalog catalog) {
        this.config = config;
        this.catalog = catalog;
        for (ReplayConfig.TypeSpec spec : config.types()) {
            InstanceType type = catalog.find(spec.instanceType()).orElseThrow(() ->
                    new IllegalArgumentException("unknown instance type " + spec.instanceType()));
            if (!type.suits(JobKind.TRAINING) || type.acceleratorCount() == 0) {
                throw new IllegalArgumentException(type.name() + " is no accelerated training type");
            }
            if (types.put(type.name(), spec) != null) {
                throw new IllegalArgumentException(type.name() + " is listed twice");
            }
        }
        for (ReplayConfig.OnDemand offering : config.onDemand()) {
            requireType(offering.instanceType());
            if (totals.put(OfferingKey.onDemand(offering.region(), offering.instanceType()), offering.instances()) != null) {
                throw new IllegalArgumentException("on-demand " + offering.instanceType() + " in " + offering.region()
                        + " is listed twice");
            }
        }
        for (ReplayConfig.Plan plan : config.plans()) {
            requireType(plan.instanceType());
            var state = new PlanState(plan.name(), plan.instanceType(), plan.region(), PlanStatus.ACTIVE,
                    Instant.EPOCH, null, Set.copyOf(plan.teams()));
            if (plans.put(plan.name(), state) != null) {
                throw new IllegalArgumentException("plan " + plan.name() + " is listed twice");
            }
            totals.put(state.offering(), plan.instances());
        }
        types.keySet().forEach(type -> quotas.put(type,
                (int) Math.ceil(config.teamQuotaShare() * instancesOf(type))));
    }

    private void requireType(String instanceType) {
        if (!types.containsKey(instanceType)) {
            throw new IllegalArgumentException(instanceType + " is not among the replay's types");
        }
    }

    public ReplayConfig config() {
        return config;
    }

    public Catalog catalog() {
        return catalog;
    }

    /** Every offering, on demand and plans, in the configuration's order. */
    public Collection<OfferingKey> offerings() {
        return totals.keySet();
    }

    public int total(OfferingKey offering) {
        return totals.getOrDefault(offering, 0);
    }

    public int totalInstances() {
        return totals.values().stream().mapToInt(Integer::intValue).sum();
    }

    public int planInstances() {
        return totals.entrySet().stream().filter(e -> e.getKey().isPlan()).mapToInt(Map.Entry::getValue).sum();
    }

    private int instancesOf(String instanceType) {
        return totals.entrySet().stream().filter(e -> e.getKey().instanceType().equals(instanceType))
                .mapToInt(Map.Entry::getValue).sum();
    }

    public List<PlanState> plans() {
        return List.copyOf(plans.values());
    }

    public Map<String, PlanState> plansVisibleTo(String team) {
        var visible = new LinkedHashMap<String, PlanState>();
        plans.values().stream().filter(p -> p.visibleTo(team)).forEach(p -> visible.put(p.name(), p));
        return visible;
    }

    /** The same quota for every team: a share of each type's instances (the configuration's teamQuotaShare). */
    public int quota(String instanceType) {
        return quotas.getOrDefault(instanceType, 0);
    }

    public Map<String, Integer> quotas() {
        return Map.copyOf(quotas);
    }

    /** A team holding nothing, with its quota. No accelerator or concurrent-job caps: only per-type limits. */
    public TeamState idleTeam(String team) {
        return new TeamState(team, quotas, Map.of(), null, 0, null, 0, false);
    }

    /**
     * Where a team's jobs may run, in the order they fall back: the types in configured order, and within a
     * type first the plans the team may use, then on-demand offerings.
     */
    public List<OfferingKey> ladder(String team) {
        var ladder = new ArrayList<OfferingKey>();
        for (String type : types.keySet()) {
            plans.values().stream().filter(p -> p.instanceType().equals(type) && p.visibleTo(team))
                    .forEach(p -> ladder.add(p.offering()));
            totals.keySet().stream().filter(k -> !k.isPlan() && k.instanceType().equals(type) && totals.get(k) > 0)
                    .forEach(ladder::add);
        }
        return ladder;
    }

    public Set<String> regions() {
        var regions = new LinkedHashSet<String>();
        totals.keySet().forEach(k -> regions.add(k.region()));
        return regions;
    }

    public ReplayConfig.TypeSpec type(String instanceType) {
        ReplayConfig.TypeSpec spec = types.get(instanceType);
        if (spec == null) {
            throw new IllegalArgumentException(instanceType + " is not among the replay's types");
        }
        return spec;
    }

    public List<ReplayConfig.TypeSpec> types() {
        return List.copyOf(types.values());
    }

    /** A job of g GPUs takes ceil(g / GPUs per instance) whole instances, as a SageMaker job does. */
    public int instancesFor(TraceJob job, String instanceType) {
        int perInstance = acceleratorsPerInstance(instanceType);
        return (job.gpus() + perInstance - 1) / perInstance;
    }

    public int acceleratorsPerInstance(String instanceType) {
        return catalog.get(instanceType).acceleratorCount();
    }

    /** The trace's run time on the type's generation divided by its speedup, rounded up, at least 1 s. */
    /** The maximum run time the job's user is modelled to give ({@link ReplayConfig.MaxRuntimeHint}). */
    public java.time.Duration maxRuntimeHint(TraceJob job, String instanceType) {
        ReplayConfig.MaxRuntimeHint hint = config.maxRuntimeHint();
        double padded = runtimeSeconds(job, instanceType) * hint.padding();
        long rounded = (long) Math.ceil(padded / hint.roundUpSeconds()) * hint.roundUpSeconds();
        return java.time.Duration.ofSeconds(Math.min(2_419_200, Math.max(hint.roundUpSeconds(), rounded)));
    }

    public long runtimeSeconds(TraceJob job, String instanceType) {
        ReplayConfig.TypeSpec spec = type(instanceType);
        return Math.max(1, (long) Math.ceil(job.durationSeconds(spec.generation()) / spec.speedup()));
    }
}
