package io.spillover.scheduling;

import io.spillover.capacity.CapacityChanged;
import io.spillover.capacity.CapacityReleased;
import io.spillover.jobs.JobLeftQueue;
import io.spillover.jobs.JobSubmitted;
import io.spillover.jobs.RequeuedAfterRefusal;
import io.spillover.plans.PlanChanged;
import io.spillover.tenancy.QuotaChanged;
import org.springframework.stereotype.Component;
import org.springframework.transaction.event.TransactionalEventListener;

/**
 * Turns what happened elsewhere into work for the scheduler, once the change is committed: each event
 * names the jobs it could concern, so a cycle evaluates those and no others.
 */
@Component
class WakeupEvents {

    private final Wakeups wakeups;

    WakeupEvents(Wakeups wakeups) {
        this.wakeups = wakeups;
    }

    @TransactionalEventListener(fallbackExecution = true)
    void on(JobSubmitted event) {
        wakeups.add(Scope.job(event.jobId(), Trigger.SUBMITTED));
    }

    /** Freed capacity concerns the jobs listing the offering, and the team's jobs (its headroom grew). */
    @TransactionalEventListener(fallbackExecution = true)
    void on(CapacityReleased event) {
        wakeups.add(Scope.offering(event.offering(), Trigger.CAPACITY_RELEASED)
                .and(Scope.team(event.team(), Trigger.CAPACITY_RELEASED)));
    }

    @TransactionalEventListener(fallbackExecution = true)
    void on(CapacityChanged event) {
        wakeups.add(Scope.offering(event.offering(), event.cause() == CapacityChanged.Cause.UNAVAILABLE_EXPIRED
                ? Trigger.UNAVAILABLE_EXPIRED : Trigger.CAPACITY_CHANGED));
    }

    @TransactionalEventListener(fallbackExecution = true)
    void on(QuotaChanged event) {
        wakeups.add(Scope.team(event.team(), Trigger.QUOTA_CHANGED));
    }

    /** Only a strict-FIFO team's later jobs can move up, but a team's jobs are few to evaluate. */
    @TransactionalEventListener(fallbackExecution = true)
    void on(JobLeftQueue event) {
        wakeups.add(Scope.team(event.team(), Trigger.JOB_LEFT_QUEUE));
    }

    /** A plan that became active, or was changed, may fit the jobs that name it. */
    @TransactionalEventListener(fallbackExecution = true)
    void on(PlanChanged event) {
        if (event.activated()) {
            wakeups.add(Scope.offering(event.offering(), Trigger.PLAN_ACTIVATED));
        } else if (event.edited()) {
            wakeups.add(Scope.offering(event.offering(), Trigger.PLAN_CHANGED));
        }
    }

    @TransactionalEventListener(fallbackExecution = true)
    void on(RequeuedAfterRefusal event) {
        wakeups.add(Scope.job(event.jobId(), Trigger.LAUNCH_REFUSED)
                .and(Scope.team(event.team(), Trigger.CAPACITY_RELEASED)));
    }
}
