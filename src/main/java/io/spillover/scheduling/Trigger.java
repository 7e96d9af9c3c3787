package io.spillover.scheduling;

/** What woke the scheduler for a job; recorded with each evaluation. */
enum Trigger {
    SUBMITTED, CAPACITY_RELEASED, CAPACITY_CHANGED, QUOTA_CHANGED, UNAVAILABLE_EXPIRED, LAUNCH_REFUSED,
    JOB_LEFT_QUEUE, PLACEMENT_CONFLICT, SWEEP
}
