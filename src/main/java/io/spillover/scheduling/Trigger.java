package io.spillover.scheduling;

/** What woke the scheduler for a job; recorded with each evaluation. */
enum Trigger {
    SUBMITTED, CAPACITY_RELEASED, CAPACITY_CHANGED, QUOTA_CHANGED, UNAVAILABLE_EXPIRED, LAUNCH_REFUSED,
    PLAN_ACTIVATED, PLAN_CHANGED, JOB_LEFT_QUEUE, PLACEMENT_CONFLICT, SWEEP
}
