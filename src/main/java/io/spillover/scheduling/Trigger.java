package io.spillover.scheduling;

/**
 * What woke the scheduler for a job; recorded with each evaluation. {@code FALLBACK_OPENED}: the job's patience
 * for its earlier entries ran out, so it may take a later one; {@code HOLDING}: the job holds instances (it has
 * waited past the hold age), so it is in every cycle that could hand them to another job; {@code ATTEMPT_LOST}: the
 * job's attempt was lost with what ran it, and it waits to be placed again; {@code PREEMPTED}: the job was preempted
 * and its attempt has stopped, and it waits to be placed again.
 */
enum Trigger {
    SUBMITTED, CAPACITY_RELEASED, CAPACITY_CHANGED, QUOTA_CHANGED, UNAVAILABLE_EXPIRED, LAUNCH_REFUSED, ATTEMPT_LOST,
    PLAN_ACTIVATED, PLAN_CHANGED, JOB_LEFT_QUEUE, PLACEMENT_CONFLICT, FALLBACK_OPENED, HOLDING, PREEMPTED, SWEEP
}
