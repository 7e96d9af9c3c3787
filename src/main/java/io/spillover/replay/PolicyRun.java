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
 */
public record PolicyRun(Policy policy, List<JobRun> runs, List<ReplayJob> neverStarted, long evaluations, long events,
                        double planUtilizationWhileWaiting) {

    public PolicyRun {
        runs = List.copyOf(runs);
        neverStarted = List.copyOf(neverStarted);
    }
}
