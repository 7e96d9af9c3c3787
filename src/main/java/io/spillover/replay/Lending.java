package io.spillover.replay;

import io.spillover.placement.BorrowLimit;
import io.spillover.placement.PlacementRequest;
import io.spillover.placement.QueuePass;
import io.spillover.placement.SharingPolicy;
import io.spillover.placement.SharingStrategy;
import java.time.Duration;
import java.util.SplittableRandom;

/**
 * How a replay lends and borrows guarantees (SPEC §8.1): the platform's {@link SharingPolicy}, every team's strategy
 * and borrow limit, and what the replay assumes of the jobs: which are preemptible, what maximum run time each
 * declares, how often a preemptible job writes a checkpoint and what a resumed attempt costs before it works again.
 *
 * <p>A preemptible job loses, when stopped, the work since its last checkpoint: it writes one every
 * {@code checkpointInterval} of work on each attempt, none at the stop signal, and a resumed attempt spends
 * {@code restartOverhead} (starting, reading the checkpoint) before it works again. Preempted {@code maxPreemptions}
 * times, it is no longer preemptible, as the service has it: it borrows only within the borrow horizon.
 *
 * @param policy                   the platform's sharing rules, as the scheduler has them
 * @param strategy                 every team's strategy
 * @param borrowLimit              every team's borrow limit
 * @param preemptibleShare         the share of jobs that opt in to preemption (drawn per job from the seed and its
 *                                 id), used when {@code preemptibleMinRunSeconds} is null
 * @param preemptibleMinRunSeconds when set, the jobs whose run on their first choice is at least this long are the
 *                                 preemptible ones (long jobs checkpoint)
 * @param declaresMaxRuntime       whether each job declares a maximum run time: its {@link #maxRuntime}
 * @param checkpointIntervalSeconds work between two checkpoints of a preemptible job
 * @param restartOverheadSeconds   what a resumed attempt spends before it works again
 * @param maxPreemptions           preemptions after which a job is no longer preemptible
 */
public record Lending(SharingPolicy policy, SharingStrategy strategy, BorrowLimit borrowLimit, double preemptibleShare,
                      Long preemptibleMinRunSeconds, boolean declaresMaxRuntime, long checkpointIntervalSeconds,
                      long restartOverheadSeconds, int maxPreemptions, long seed) {

    /** Guarantees as hard limits: nothing is lent or borrowed, no job is preemptible. */
    public static final Lending OFF = new Lending(SharingPolicy.OFF, SharingStrategy.RESERVE, BorrowLimit.UNLIMITED, 0,
            null, false, 1800, 300, 3, 0);

    public Lending {
        if (!(preemptibleShare >= 0 && preemptibleShare <= 1)) {
            throw new IllegalArgumentException("the preemptible share must be in [0, 1]");
        }
        if (checkpointIntervalSeconds < 1 || restartOverheadSeconds < 0 || maxPreemptions < 0) {
            throw new IllegalArgumentException("checkpoint interval >= 1 s, restart overhead >= 0, max preemptions >= 0");
        }
    }

    public boolean enabled() {
        return policy.enabled();
    }

    /** Whether the job opts in to preemption: it has a checkpoint to resume from. */
    public boolean preemptible(ReplayJob job) {
        if (!enabled()) {
            return false;
        }
        if (preemptibleMinRunSeconds != null) {
            return job.runSeconds(job.choices().get(0).instanceType()) >= preemptibleMinRunSeconds;
        }
        return preemptibleShare > 0
                && new SplittableRandom(seed * 7_919L + job.id().hashCode()).nextDouble() < preemptibleShare;
    }

    /**
     * The maximum run time the job declares, or null: twice its longest run over the entries of its list, rounded up
     * to the hour (a user who lists slower fallbacks must let the job finish on them, or the service stops it there).
     */
    public Duration maxRuntime(ReplayJob job) {
        if (!declaresMaxRuntime) {
            return null;
        }
        long longest = job.choices().stream().mapToLong(c -> job.runSeconds(c.instanceType())).max().orElse(1);
        long hours = (2 * longest + 3599) / 3600;
        return Duration.ofSeconds(Math.min(2_419_200, Math.max(1, hours) * 3600));
    }

    /**
     * The job's request with the maximum run time it declares, and, when the policy shares, whether it may be
     * preempted: the same jobs, with or without sharing.
     */
    public PlacementRequest terms(ReplayJob job, PlacementRequest request) {
        return new PlacementRequest(request.team(), request.kind(), request.preferences(), maxRuntime(job),
                preemptible(job));
    }

    /** The work a preemptible job keeps when stopped after {@code workedSeconds} of work on an attempt. */
    public long saved(long workedSeconds) {
        return workedSeconds <= 0 ? 0 : workedSeconds / checkpointIntervalSeconds * checkpointIntervalSeconds;
    }

    public Lending withPolicy(SharingPolicy newPolicy) {
        return new Lending(newPolicy, strategy, borrowLimit, preemptibleShare, preemptibleMinRunSeconds,
                declaresMaxRuntime, checkpointIntervalSeconds, restartOverheadSeconds, maxPreemptions, seed);
    }

    /** The same with the preemptible jobs chosen by share (min run null) or by run length. */
    public Lending withPreemptible(double share, Long minRunSeconds) {
        return new Lending(policy, strategy, borrowLimit, share, minRunSeconds, declaresMaxRuntime,
                checkpointIntervalSeconds, restartOverheadSeconds, maxPreemptions, seed);
    }

    public Lending withDeclaredMaxRuntime(boolean declares) {
        return new Lending(policy, strategy, borrowLimit, preemptibleShare, preemptibleMinRunSeconds, declares,
                checkpointIntervalSeconds, restartOverheadSeconds, maxPreemptions, seed);
    }

    /** In words, for the report. */
    public String describe() {
        if (!enabled()) {
            return "guarantees as hard limits";
        }
        return "teams " + strategy + " (borrow limit " + borrowLimit.describe() + "), borrow horizon "
                + QueuePass.words(policy.borrowHorizon()) + ", minimum run " + QueuePass.words(policy.preemptExempt())
                + ", grace " + QueuePass.words(policy.grace()) + ", whenCanBorrow " + policy.whenCanBorrow() + "; "
                + (preemptibleMinRunSeconds != null ? "jobs running at least " + QueuePass.words(
                Duration.ofSeconds(preemptibleMinRunSeconds)) + " preemptible"
                : Math.round(preemptibleShare * 100) + " % of jobs preemptible")
                + (declaresMaxRuntime ? ", each job declaring twice its longest run as its maximum run time" : "")
                + "; checkpoint every " + QueuePass.words(Duration.ofSeconds(checkpointIntervalSeconds))
                + ", restart overhead " + QueuePass.words(Duration.ofSeconds(restartOverheadSeconds));
    }
}
