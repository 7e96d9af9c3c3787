package io.spillover.jobs;

/** Why a job is in its status, as a stable code; the status message says it in words. */
public enum StatusReason {
    SUBMITTED,
    PLACED,
    LAUNCHED,
    LAUNCH_REFUSED,
    COMPLETED,
    NONZERO_EXIT,
    MAX_PENDING_TIME_EXCEEDED,
    MAX_RUNTIME_EXCEEDED,
    STOPPED_BY_USER,
    /** The provider stopped the job on its own (not at Spillover's request). */
    STOPPED_BY_PROVIDER,
    PLAN_EXPIRED,
    PROVIDER_ERROR,
    /**
     * The attempt was lost with what ran it (the instance that ran a local job died, or the provider no longer
     * knows it): the job waits again, to be placed as a new attempt.
     */
    ATTEMPT_LOST,
    /** The attempt was lost and the job had been placed again as often as {@code spillover.jobs.lost-attempt-retries} allows. */
    LOST_BY_PROVIDER,
    /**
     * Stopped to give instances it borrowed back to a team below its guarantee (STOPPING), and then waiting again at
     * its queue position, to be placed as a new attempt that resumes from its checkpoint (PENDING).
     */
    PREEMPTED
}
