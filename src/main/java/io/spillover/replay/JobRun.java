package io.spillover.replay;

import io.spillover.placement.PreferenceEntry;
import java.util.List;

/**
 * How one job went in a replay: its last attempt (the one that ran to the end), and the attempts a reclaim stopped
 * before it, if any.
 *
 * @param startSeconds when the last attempt started
 * @param choice       the position of the entry its last attempt ran on in its full list of choices (0: its first
 *                     choice)
 * @param preempted    the earlier attempts, each stopped by a reclaim, in order
 * @param borrowed     whether the last attempt ran beyond its team's guarantee
 * @param restartSeconds what the last attempt spent resuming from a checkpoint before it worked again (0 for a first
 *                       attempt)
 */
public record JobRun(ReplayJob job, long startSeconds, long endSeconds, int choice, PreferenceEntry entry,
                     List<Attempt> preempted, boolean borrowed, long restartSeconds) {

    /**
     * An attempt a reclaim stopped.
     *
     * @param lostSeconds its run since its last checkpoint, restart included: work done again by a later attempt
     */
    public record Attempt(long startSeconds, long endSeconds, PreferenceEntry entry, boolean borrowed,
                          long lostSeconds) {

        public long runSeconds() {
            return endSeconds - startSeconds;
        }
    }

    public JobRun {
        preempted = List.copyOf(preempted);
    }

    /** A job that ran once, within its team's guarantee. */
    public JobRun(ReplayJob job, long startSeconds, long endSeconds, int choice, PreferenceEntry entry) {
        this(job, startSeconds, endSeconds, choice, entry, List.of(), false, 0);
    }

    /** When it first started. */
    public long firstStartSeconds() {
        return preempted.isEmpty() ? startSeconds : preempted.get(0).startSeconds();
    }

    /** The time it waited in the queue: before its first start, and between a preemption and its next attempt. */
    public long waitSeconds() {
        return completionSeconds() - preempted.stream().mapToLong(Attempt::runSeconds).sum() - runSeconds();
    }

    /** How long its last attempt ran. */
    public long runSeconds() {
        return endSeconds - startSeconds;
    }

    public long completionSeconds() {
        return endSeconds - job.submitSeconds();
    }

    /**
     * (end − submit) / its run, uninterrupted, on the type it ended on: how many times longer the job took than its
     * run alone; a run counts at least 1 s. For a job never preempted, (wait + run) / run.
     */
    public double slowdown() {
        if (preempted.isEmpty()) {
            return (double) (waitSeconds() + Math.max(1, runSeconds())) / Math.max(1, runSeconds());
        }
        return (double) completionSeconds() / Math.max(1, job.runSeconds(entry.instanceType()));
    }

    /** Instance-seconds the job held, every attempt's. */
    public double busyInstanceSeconds() {
        double busy = (double) entry.instanceCount() * runSeconds();
        for (Attempt attempt : preempted) {
            busy += (double) attempt.entry().instanceCount() * attempt.runSeconds();
        }
        return busy;
    }

    /** Instance-seconds lost to preemption: each stopped attempt's work since its checkpoint, and the restarts. */
    public double lostInstanceSeconds() {
        double lost = (double) entry.instanceCount() * restartSeconds;
        for (Attempt attempt : preempted) {
            lost += (double) attempt.entry().instanceCount() * attempt.lostSeconds();
        }
        return lost;
    }

    /** Whether any of its attempts ran beyond its team's guarantee. */
    public boolean everBorrowed() {
        return borrowed || preempted.stream().anyMatch(Attempt::borrowed);
    }
}
