package io.spillover.replay;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import io.spillover.placement.QueuePolicy;

/**
 * The fleet, plans and policies of a replay, as written in a small JSON file (see
 * {@code src/bench/replay-fleet.json}; the benchmark runner reads it, so this module needs no JSON library).
 *
 * @param types          the instance types in the order jobs fall back through them, each with how its run
 *                       times follow from the trace and how often it is a job's first choice
 * @param teamQuotaShare each team's quota for a type, as a share of the type's instances (on demand and in
 *                       plans), rounded up; 1 lets one team take a whole type
 * @param polling        the variants of policy (c) to replay
 * @param maxRuntimeHint how users are modelled to set {@code maxRuntimeInSeconds} for the hinted policy; absent:
 *                       twice the run on the first choice, rounded up to the hour
 * @param fairnessGoal   the Jain's index the queue-policy issue asks of this fleet ({@link Goals}); absent: 0.95
 */
public record ReplayConfig(String description, long seed, double teamQuotaShare, List<TypeSpec> types,
                           List<OnDemand> onDemand, List<Plan> plans, List<Policy.Polling> polling,
                           MaxRuntimeHint maxRuntimeHint, Double fairnessGoal) {

    /**
     * A user's maximum run time: {@code padding} times the job's run on its first choice, rounded up to a whole
     * {@code roundUpSeconds}, within SageMaker's 1 s to 28 days. An assumption about users, not a measurement.
     */
    public record MaxRuntimeHint(double padding, long roundUpSeconds) {

        public static final MaxRuntimeHint DEFAULT = new MaxRuntimeHint(2.0, 3600);

        public MaxRuntimeHint {
            if (!(padding >= 1) || roundUpSeconds < 1) {
                throw new IllegalArgumentException("maxRuntimeHint: padding must be >= 1 and roundUpSeconds >= 1");
            }
        }
    }

    /**
     * @param durationColumn    which trace column the type's run times follow: k80, p100 or v100
     * @param speedup           how many times faster than that column the type runs a job
     * @param firstChoiceWeight relative share of jobs whose first choice this type is
     */
    public record TypeSpec(String instanceType, String durationColumn, double speedup, double firstChoiceWeight) {

        public TypeSpec {
            Objects.requireNonNull(instanceType, "instanceType");
            Generation.named(durationColumn);
            if (!(speedup > 0) || firstChoiceWeight < 0) {
                throw new IllegalArgumentException(instanceType + ": speedup must be > 0 and the weight >= 0");
            }
        }

        public Generation generation() {
            return Generation.named(durationColumn);
        }
    }

    public record OnDemand(String region, String instanceType, int instances) {

        public OnDemand {
            Objects.requireNonNull(region, "region");
            Objects.requireNonNull(instanceType, "instanceType");
            if (instances < 0) {
                throw new IllegalArgumentException("on-demand " + instanceType + ": instances must be >= 0");
            }
        }
    }

    /** A training plan, always ACTIVE for the whole replay; only its teams see it. */
    public record Plan(String name, String instanceType, String region, int instances, List<String> teams) {

        public Plan {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(instanceType, "instanceType");
            Objects.requireNonNull(region, "region");
            teams = List.copyOf(teams);
            if (instances < 1) {
                throw new IllegalArgumentException("plan " + name + ": instances must be >= 1");
            }
        }
    }

    public ReplayConfig {
        types = List.copyOf(types);
        onDemand = List.copyOf(onDemand);
        plans = plans == null ? List.of() : List.copyOf(plans);
        polling = polling == null ? List.of() : List.copyOf(polling);
        maxRuntimeHint = maxRuntimeHint == null ? MaxRuntimeHint.DEFAULT : maxRuntimeHint;
        fairnessGoal = fairnessGoal == null ? 0.95 : fairnessGoal;
        if (types.isEmpty() || !(teamQuotaShare > 0) || teamQuotaShare > 1) {
            throw new IllegalArgumentException("a replay needs at least one type and a quota share in (0, 1]");
        }
        if (types.stream().mapToDouble(TypeSpec::firstChoiceWeight).sum() <= 0) {
            throw new IllegalArgumentException("at least one type needs a first-choice weight above 0");
        }
    }

    /**
     * The policies to replay: single types; preference lists served first fit (the queue as first built);
     * the platform's default queue policy, then the default with each of its rules turned off, so each rule's
     * part shows; the default with users' maximum run times as hints; then each polling variant.
     */
    public List<Policy> policies() {
        QueuePolicy d = QueuePolicy.DEFAULT;
        var all = new ArrayList<Policy>(List.of(new Policy.SingleType(), new Policy.PreferenceLists(),
                new Policy.Queued("spillover", "the platform's default queue policy (QueuePolicy.DEFAULT): precedence,"
                        + " shortest expected run first by sweep and history, holds after 1 d", d),
                new Policy.Queued("no-sweeps", "the default with expected runs from the profile's and team's medians"
                        + " only, as the first queue policy had", d, Policy.Knowledge.TYPICAL),
                new Policy.Queued("no-precedence", "the default without precedence", d.withPrecedence(false)),
                new Policy.Queued("with-patience", "the default with 10 min patience per entry",
                        d.withFallbackAfter(java.time.Duration.ofMinutes(10))),
                new Policy.Queued("with-fair-share", "the default with fair share (1 d half-life, equal weights)",
                        d.withFairShare(true)),
                new Policy.Queued("no-shortest-first", "the default in submission order within a team",
                        d.withShortestFirst(false)),
                new Policy.Queued("no-holds", "the default without holds", d.withReserveAfter(null)),
                new Policy.Queued("spillover-hinted", "the default, each job also giving a maximum run time as its"
                        + " user is modelled to set it (see the fleet's maxRuntimeHint)", d, Policy.Knowledge.HINTS),
                new Policy.Queued("oracle", "the default ranking by each job's true run, which no service knows: the"
                        + " bound of what ranking by expected run can reach", d, Policy.Knowledge.ORACLE)));
        all.addAll(polling);
        return all;
    }

    public ReplayConfig withPolling(List<Policy.Polling> variants) {
        return new ReplayConfig(description, seed, teamQuotaShare, types, onDemand, plans, variants, maxRuntimeHint,
                fairnessGoal);
    }
}
