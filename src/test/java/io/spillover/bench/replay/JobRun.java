package io.spillover.bench.replay;

import io.spillover.placement.PreferenceEntry;

/**
 * How one job went in a replay.
 *
 * @param choice the position of the entry it started on in its full list of choices (0: its first choice)
 */
public record JobRun(ReplayJob job, long startSeconds, long endSeconds, int choice, PreferenceEntry entry) {

    public long waitSeconds() {
        return startSeconds - job.trace().submitSeconds();
    }

    public long runSeconds() {
        return endSeconds - startSeconds;
    }

    public long completionSeconds() {
        return endSeconds - job.trace().submitSeconds();
    }

    /** Instance-seconds the job held. */
    public double busyInstanceSeconds() {
        return (double) entry.instanceCount() * runSeconds();
    }
}
