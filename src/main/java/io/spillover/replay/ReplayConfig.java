package io.spillover.replay;

import io.spillover.placement.BorrowLimit;
import io.spillover.placement.QueuePolicy;
import io.spillover.placement.SharingPolicy;
import io.spillover.placement.SharingStrategy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

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
 * @param fairnessGoal   the Jain's index asked of the default policy on this fleet ({@link Goals}); absent: at
 *                       least the better polling script's in the same run
 * @param sharing        how guarantees are lent and borrowed, and what is assumed of the jobs; absent:
 *                       {@link Sharing#DEFAULT}
 */
public record ReplayConfig(String description, long seed, double teamQuotaShare, List<TypeSpec> types,
                           List<OnDemand> onDemand, List<Plan> plans, List<Policy.Polling> polling,
                           MaxRuntimeHint maxRuntimeHint, Double fairnessGoal, Sharing sharing) {

    /** A fleet file without sharing settings: {@link Sharing#DEFAULT}. */
    public ReplayConfig(String description, long seed, double teamQuotaShare, List<TypeSpec> types,
                        List<OnDemand> onDemand, List<Plan> plans, List<Policy.Polling> polling,
                        MaxRuntimeHint maxRuntimeHint, Double fairnessGoal) {
        this(description, seed, teamQuotaShare, types, onDemand, plans, polling, maxRuntimeHint, fairnessGoal, null);
    }

    /**
     * The fleet file's {@code sharing} object; every field left out keeps its default. The team quotas of the fleet
     * ({@code teamQuotaShare}) are the guarantees, as they are the caps of the polling scripts under quotas.
     *
     * @param strategy                  every team's strategy: RESERVE, LEND or LEND_AND_BORROW (default)
     * @param borrowLimitPercent        every team's borrow limit in percent of its guarantee; absent: unlimited
     * @param borrowHorizonSeconds      the longest maximum run time that borrows without being preemptible (14400)
     * @param preemptExemptSeconds      a preemptible job's minimum run before a reclaim may stop it (600)
     * @param graceSeconds              from the stop signal to the stop (120, SageMaker's)
     * @param cycleSeconds              the scheduler's cycle, counted into the lender's bound (60); the replay acts
     *                                  at once
     * @param whenCanBorrow             BORROW (default) or TRY_NEXT_ENTRY
     * @param preemptibleShare          the share of jobs that opt in to preemption (0.5)
     * @param preemptibleMinRunSeconds  instead of a share: jobs running at least this long on their first choice
     * @param declaresMaxRuntime        whether each job declares a maximum run time (true): twice its longest run
     *                                  over its list, rounded up to the hour
     * @param checkpointIntervalSeconds work between two checkpoints of a preemptible job (1800)
     * @param restartOverheadSeconds    what a resumed attempt spends before it works again (300)
     * @param maxPreemptions            preemptions after which a job is no longer preemptible (3): requeued as ever,
     *                                  it borrows only within the horizon, as the service has it
     * @param shorterFirst              in-team preemption's ratio, 0 for off (the default's)
     */
    public record Sharing(String strategy, Integer borrowLimitPercent, Long borrowHorizonSeconds,
                          Long preemptExemptSeconds, Long graceSeconds, Long cycleSeconds, String whenCanBorrow,
                          Double preemptibleShare, Long preemptibleMinRunSeconds, Boolean declaresMaxRuntime,
                          Long checkpointIntervalSeconds, Long restartOverheadSeconds, Integer maxPreemptions,
                          Double shorterFirst) {

        public static final Sharing DEFAULT = new Sharing(null, null, null, null, null, null, null, null, null, null,
                null, null, null, null);

        public Sharing {
            if (strategy != null) {
                SharingStrategy.valueOf(strategy);
            }
            if (whenCanBorrow != null) {
                SharingPolicy.WhenCanBorrow.valueOf(whenCanBorrow);
            }
            if (preemptibleShare != null && preemptibleMinRunSeconds != null) {
                throw new IllegalArgumentException("sharing: give preemptibleShare or preemptibleMinRunSeconds, not both");
            }
        }

        /** The lending these settings describe, drawing preemptible jobs from {@code seed}. */
        public Lending lending(long seed) {
            SharingPolicy d = SharingPolicy.DEFAULT;
            var policy = new SharingPolicy(true,
                    seconds(borrowHorizonSeconds, d.borrowHorizon()), seconds(preemptExemptSeconds, d.preemptExempt()),
                    seconds(graceSeconds, d.grace()), seconds(cycleSeconds, d.cycle()),
                    whenCanBorrow == null ? d.whenCanBorrow() : SharingPolicy.WhenCanBorrow.valueOf(whenCanBorrow),
                    shorterFirst == null ? d.shorterFirst() : shorterFirst);
            return new Lending(policy, strategy == null ? SharingStrategy.LEND_AND_BORROW : SharingStrategy.valueOf(strategy),
                    borrowLimitPercent == null ? BorrowLimit.UNLIMITED : BorrowLimit.percent(borrowLimitPercent),
                    preemptibleShare == null ? (preemptibleMinRunSeconds == null ? 0.5 : 0) : preemptibleShare,
                    preemptibleMinRunSeconds, declaresMaxRuntime == null || declaresMaxRuntime,
                    checkpointIntervalSeconds == null ? 1800 : checkpointIntervalSeconds,
                    restartOverheadSeconds == null ? 300 : restartOverheadSeconds,
                    maxPreemptions == null ? 3 : maxPreemptions, seed);
        }

        private static Duration seconds(Long value, Duration otherwise) {
            return value == null ? otherwise : Duration.ofSeconds(value);
        }
    }

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
        sharing = sharing == null ? Sharing.DEFAULT : sharing;
        if (types.isEmpty() || !(teamQuotaShare > 0) || teamQuotaShare > 1) {
            throw new IllegalArgumentException("a replay needs at least one type and a quota share in (0, 1]");
        }
        if (types.stream().mapToDouble(TypeSpec::firstChoiceWeight).sum() <= 0) {
            throw new IllegalArgumentException("at least one type needs a first-choice weight above 0");
        }
    }

    /** The lending the fleet file describes. */
    public Lending lending() {
        return sharing.lending(seed);
    }

    /**
     * The policies to replay: single types; preference lists served first fit (the queue as first built); the
     * platform's default queue policy with guarantees lent and borrowed ({@code spillover}); the same with hard quotas
     * ({@code no-sharing}: the same jobs, declaring the same maximum run times), and as it was before sharing
     * ({@code before-sharing}: hard quotas, no maximum run times, no patience in proportion to the run); the default
     * with the other choice between borrowing and a later entry, with no job preemptible, with no maximum run times
     * declared; the default with each of its queue rules turned off, so each rule's part shows; the default with
     * users' maximum run times as hints; the oracle; then each polling variant under the teams' quotas, and with every
     * quota lifted (a free-for-all), beside the queue and the oracle with quotas lifted.
     */
    public List<Policy> policies() {
        QueuePolicy d = QueuePolicy.DEFAULT;
        Lending lent = lending();
        Lending hard = lent.withPolicy(lent.policy().withEnabled(false));
        SharingPolicy.WhenCanBorrow other = lent.policy().whenCanBorrow() == SharingPolicy.WhenCanBorrow.BORROW
                ? SharingPolicy.WhenCanBorrow.TRY_NEXT_ENTRY : SharingPolicy.WhenCanBorrow.BORROW;
        var all = new ArrayList<Policy>(List.of(new Policy.SingleType(), new Policy.PreferenceLists(),
                new Policy.Queued("spillover", "the platform's default queue policy (QueuePolicy.DEFAULT: precedence"
                        + " until a job has waited as long as its expected run, shortest expected run first by sweep,"
                        + " history and maximum run time, patience of "
                        + Math.round(d.patienceShare() * 1000) / 10.0 + " % of the expected run, holds after 1 d) with"
                        + " guarantees lent and borrowed (" + lent.describe() + ")", d, Policy.Knowledge.HISTORY, lent),
                new Policy.Queued("no-sharing", "the default with every team's quota a hard limit; the same jobs, the"
                        + " same maximum run times", d, Policy.Knowledge.HISTORY, hard),
                new Policy.Queued("before-sharing", "the default queue policy as it was before sharing: hard quotas, no"
                        + " maximum run times, no patience in proportion to the run, precedence that never lapses,"
                        + " holds by age alone",
                        d.withPatienceShare(0).withPrecedenceLapse(0).withHoldAfterRun(false),
                        Policy.Knowledge.HISTORY, Lending.OFF),
                new Policy.Queued("when-can-borrow-" + other.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-'),
                        "the default, a list choosing " + other + " between borrowing an earlier entry and a later one"
                        + " within the quota", d, Policy.Knowledge.HISTORY,
                        lent.withPolicy(lent.policy().withWhenCanBorrow(other))),
                new Policy.Queued("no-preemption", "the default with no job preemptible: only jobs whose maximum run"
                        + " time is within the horizon borrow", d, Policy.Knowledge.HISTORY,
                        lent.withPreemptible(0, null)),
                new Policy.Queued("shorter-first", "the default with in-team preemption: a job that fits nowhere"
                        + " preempts its own team's preemptible jobs that may still run "
                        + (long) SharingPolicy.SHORTER_FIRST_RATIO + " times its maximum run time", d,
                        Policy.Knowledge.HISTORY, lent.withPolicy(lent.policy().withShorterFirst(
                        lent.policy().shorterFirst() > 0 ? lent.policy().shorterFirst()
                                : SharingPolicy.SHORTER_FIRST_RATIO))),
                new Policy.Queued("no-max-runtimes", "the default with no job declaring a maximum run time: only"
                        + " preemptible jobs borrow, and the queue ranks by history alone", d,
                        Policy.Knowledge.HISTORY, lent.withDeclaredMaxRuntime(false)),
                new Policy.Queued("no-patience-by-run", "the default taking a later entry as soon as it fits",
                        d.withPatienceShare(0), Policy.Knowledge.HISTORY, lent),
                new Policy.Queued("no-sweeps", "the default with expected runs from the profile's and team's medians"
                        + " only, as the first queue policy had", d, Policy.Knowledge.TYPICAL, lent),
                new Policy.Queued("no-precedence", "the default without precedence", d.withPrecedence(false),
                        Policy.Knowledge.HISTORY, lent),
                new Policy.Queued("precedence-never-lapses", "the default with precedence however long a job has"
                        + " waited", d.withPrecedenceLapse(0), Policy.Knowledge.HISTORY, lent),
                new Policy.Queued("with-patience", "the default with 10 min patience per entry besides",
                        d.withFallbackAfter(java.time.Duration.ofMinutes(10)), Policy.Knowledge.HISTORY, lent),
                new Policy.Queued("with-fair-share", "the default with fair share (1 d half-life, equal weights)",
                        d.withFairShare(true), Policy.Knowledge.HISTORY, lent),
                new Policy.Queued("no-shortest-first", "the default in submission order within a team",
                        d.withShortestFirst(false), Policy.Knowledge.HISTORY, lent),
                new Policy.Queued("no-holds", "the default without holds", d.withReserveAfter(null),
                        Policy.Knowledge.HISTORY, lent),
                new Policy.Queued("holds-by-age", "the default with a job holding once it has waited a day, however"
                        + " long its expected run", d.withHoldAfterRun(false), Policy.Knowledge.HISTORY, lent),
                new Policy.Queued("spillover-hinted", "the default, each job also giving its expected run as its"
                        + " user is modelled to (see the fleet's maxRuntimeHint)", d, Policy.Knowledge.HINTS, lent),
                new Policy.Queued("oracle", "the default ranking by each job's true run, which no service knows: the"
                        + " bound of what ranking by expected run can reach", d, Policy.Knowledge.ORACLE, lent)));
        all.addAll(polling);
        all.add(new Policy.Uncapped("queue-no-quotas", new Policy.Queued("no-sharing", "the default queue policy", d,
                Policy.Knowledge.HISTORY, hard)));
        all.add(new Policy.Uncapped("oracle-no-quotas", new Policy.Queued("oracle", "the default ranking by each job's"
                + " true run", d, Policy.Knowledge.ORACLE, hard)));
        polling.forEach(p -> all.add(new Policy.Uncapped(p)));
        return all;
    }

    public ReplayConfig withPolling(List<Policy.Polling> variants) {
        return new ReplayConfig(description, seed, teamQuotaShare, types, onDemand, plans, variants, maxRuntimeHint,
                fairnessGoal, sharing);
    }

    /** The same fleet with {@code delta} instances more (fewer, when negative) of its {@code index}th on-demand offering. */
    public ReplayConfig withInstances(int index, int delta) {
        var changed = new ArrayList<>(onDemand);
        OnDemand offering = changed.get(index);
        changed.set(index, new OnDemand(offering.region(), offering.instanceType(), offering.instances() + delta));
        return new ReplayConfig(description, seed, teamQuotaShare, types, changed, plans, polling, maxRuntimeHint,
                fairnessGoal, sharing);
    }

    /** The same fleet drawing its jobs' lists and which jobs are preemptible from another seed. */
    public ReplayConfig withSeed(long newSeed) {
        return new ReplayConfig(description, newSeed, teamQuotaShare, types, onDemand, plans, polling, maxRuntimeHint,
                fairnessGoal, sharing);
    }

    public ReplayConfig withSharing(Sharing settings) {
        return new ReplayConfig(description, seed, teamQuotaShare, types, onDemand, plans, polling, maxRuntimeHint,
                fairnessGoal, settings);
    }
}
