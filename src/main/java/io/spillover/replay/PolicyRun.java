package io.spillover.replay;

import java.util.List;

/**
 * What a replay of one policy produced: a run per started job, the jobs that never started, and how much
 * work the simulation did.
 *
 * @param evaluations decisions made by the placement core (one per job per evaluation)
 * @param events      arrivals, job ends and (for polling) retry ticks processed
 * @param planUtilizationWhileWaiting busy share of the plans' instances while a job listing the plan waited
 *                                    ({@link PlanWatch})
 * @param reclaims    what lending cost and what lenders waited for, when the policy shares
 */
public record PolicyRun(Policy policy, List<JobRun> runs, List<ReplayJob> neverStarted, long evaluations, long events,
                        double planUtilizationWhileWaiting, Reclaims reclaims) {

    /**
     * What lending and reclaiming did in one replay.
     *
     * @param preemptions        placements a reclaim stopped
     * @param reclaimDelaySeconds per job that claimed instances borrowers held (it fitted within its team's guarantee
     *                           once they came back): from its first claim to its start
     * @param borrowedStarts     attempts started beyond their team's guarantee
     * @param preemptibleDelaySeconds the same, of the jobs whose claims never waited for a bounded borrower to end:
     *                           what preemptible borrowers alone held (the promise is the grace and a cycle there)
     */
    public record Reclaims(long preemptions, List<Long> reclaimDelaySeconds, long borrowedStarts,
                           List<Long> preemptibleDelaySeconds) {

        public static final Reclaims NONE = new Reclaims(0, List.of(), 0, List.of());

        public Reclaims {
            reclaimDelaySeconds = List.copyOf(reclaimDelaySeconds);
            preemptibleDelaySeconds = List.copyOf(preemptibleDelaySeconds);
        }
    }

    public PolicyRun {
        runs = List.copyOf(runs);
        neverStarted = List.copyOf(neverStarted);
    }

    public PolicyRun(Policy policy, List<JobRun> runs, List<ReplayJob> neverStarted, long evaluations, long events,
                     double planUtilizationWhileWaiting) {
        this(policy, runs, neverStarted, evaluations, events, planUtilizationWhileWaiting, Reclaims.NONE);
    }

    /** The same run under another name: a policy replayed on a changed fleet ({@link Policy.Uncapped}). */
    public PolicyRun as(Policy other) {
        return new PolicyRun(other, runs, neverStarted, evaluations, events, planUtilizationWhileWaiting, reclaims);
    }
}
