package io.spillover.jobs;

import java.util.UUID;

/**
 * A job changed status. Published inside the transaction that logs the change, once it is logged: a listener
 * that writes in the same transaction (the webhooks' outbox) commits or rolls back with the change; one that
 * reacts to it (pages watching the job) listens after commit.
 *
 * @param transitionId the logged transition's id: it grows with the job's history, so it orders the job's changes
 * @param transition   the change
 * @param job          the job as it is after the change (without its transitions)
 */
public record JobTransitioned(long transitionId, TransitionView transition, JobView job) {

    public UUID jobId() {
        return job.id();
    }

    public String team() {
        return job.team();
    }

    public String jobName() {
        return job.name();
    }

    public JobStatus status() {
        return transition.to();
    }
}
