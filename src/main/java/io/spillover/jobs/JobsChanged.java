package io.spillover.jobs;

import java.util.Set;
import java.util.UUID;

/**
 * Jobs changed: a transition (their submission aside) or an evaluation with a new outcome, committed on whichever
 * instance, as this instance heard it from the database ({@code NOTIFY}, see {@link JobStreams}). Published on
 * every instance, on the thread that listens: a listener must only take note.
 *
 * @param jobs the jobs that changed; empty when any job may have (too many to name, or notices lost with a broken
 *             connection)
 */
public record JobsChanged(Set<UUID> jobs) {

    public JobsChanged {
        jobs = Set.copyOf(jobs);
    }

    public boolean anyJob() {
        return jobs.isEmpty();
    }
}
