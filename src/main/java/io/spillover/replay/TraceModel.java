package io.spillover.replay;

import io.spillover.catalog.Catalog;
import io.spillover.catalog.InstanceType;
import io.spillover.catalog.JobKind;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How the jobs of a GPU-cluster trace become Spillover jobs: the instance types in the order jobs fall back
 * through them, how long a job runs on each (its trace duration on one generation over a speed-up), how often each
 * is a job's first choice (drawn per job from {@code seed}), and the maximum run time users are modelled to give.
 * A trace knows none of this; the benchmark's fleet file states it ({@link ReplayConfig}), a what-if run derives it
 * from the platform's fleet.
 */
public final class TraceModel {

    private final Map<String, ReplayConfig.TypeSpec> types = new LinkedHashMap<>();
    private final long seed;
    private final ReplayConfig.MaxRuntimeHint maxRuntimeHint;

    /** @param types in the order jobs fall back through them; each an accelerated type for training, listed once */
    public TraceModel(List<ReplayConfig.TypeSpec> types, long seed, ReplayConfig.MaxRuntimeHint maxRuntimeHint,
                      Catalog catalog) {
        for (ReplayConfig.TypeSpec spec : types) {
            InstanceType type = catalog.find(spec.instanceType()).orElseThrow(() ->
                    new IllegalArgumentException("unknown instance type " + spec.instanceType()));
            if (!type.suits(JobKind.TRAINING) || type.acceleratorCount() == 0) {
                throw new IllegalArgumentException(type.name() + " is no accelerated training type");
            }
            if (this.types.put(type.name(), spec) != null) {
                throw new IllegalArgumentException(type.name() + " is listed twice");
            }
        }
        if (this.types.isEmpty() || types.stream().mapToDouble(ReplayConfig.TypeSpec::firstChoiceWeight).sum() <= 0) {
            throw new IllegalArgumentException("a trace model needs a type with a first-choice weight above 0");
        }
        this.seed = seed;
        this.maxRuntimeHint = maxRuntimeHint == null ? ReplayConfig.MaxRuntimeHint.DEFAULT : maxRuntimeHint;
    }

    /** The benchmark's model, from its fleet file. */
    public static TraceModel of(ReplayConfig config, Catalog catalog) {
        return new TraceModel(config.types(), config.seed(), config.maxRuntimeHint(), catalog);
    }

    public List<ReplayConfig.TypeSpec> types() {
        return List.copyOf(types.values());
    }

    public boolean knows(String instanceType) {
        return types.containsKey(instanceType);
    }

    public long seed() {
        return seed;
    }

    public ReplayConfig.TypeSpec type(String instanceType) {
        ReplayConfig.TypeSpec spec = types.get(instanceType);
        if (spec == null) {
            throw new IllegalArgumentException(instanceType + " is not among the replay's types");
        }
        return spec;
    }

    /** The trace's run time on the type's generation divided by its speedup, rounded up, at least 1 s. */
    public long runSeconds(TraceJob job, String instanceType) {
        ReplayConfig.TypeSpec spec = type(instanceType);
        return Math.max(1, (long) Math.ceil(job.durationSeconds(spec.generation()) / spec.speedup()));
    }

    /** The maximum run time the job's user is modelled to give ({@link ReplayConfig.MaxRuntimeHint}). */
    public Duration maxRuntimeHint(TraceJob job, String instanceType) {
        double padded = runSeconds(job, instanceType) * maxRuntimeHint.padding();
        long rounded = (long) Math.ceil(padded / maxRuntimeHint.roundUpSeconds()) * maxRuntimeHint.roundUpSeconds();
        return Duration.ofSeconds(Math.min(2_419_200, Math.max(maxRuntimeHint.roundUpSeconds(), rounded)));
    }
}
