package io.spillover.replay;

import io.spillover.placement.PreferenceEntry;

/**
 * How one job went in a replay.
 *
 * @param choice the position of the entry it started on in its full list of choices (0: its first choice)
 */
public record JobRun(ReplayJob job, long startSeconds, long endSeconds, int choice, PreferenceEntry entry) {

    public long waitSeconds() {
        return startSeconds - job.submitSeconds();
    }

    public long runSeconds() {
        return endSeconds - startSeconds;
    }

    public long completionSeconds() {
        return endSeconds - job.submitSeconds();
    }

    /** (wait + run) / run: how many times longer the job took than its run alone; a run counts at least 1 s. */
    public double slowdown() {
        return (double) (waitSeconds() + Math.max(1, runSeconds())) / Math.max(1, runSeconds());
    }

    /** Instance-seconds the job held. */
    public double busyInstanceSeconds() {
        return (double) entry.instanceCount() * runSeconds();
    }
}
