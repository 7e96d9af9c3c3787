package io.spillover.scheduling;

import io.spillover.capacity.CapacityChanged;
import io.spillover.capacity.CapacityReleased;
import io.spillover.jobs.JobLeftQueue;
import io.spillover.jobs.JobSubmitted;
import io.spillover.jobs.RequeuedAfterLoss;
import io.spillover.jobs.RequeuedAfterPreemption;
import io.spillover.jobs.RequeuedAfterRefusal;
import io.spillover.plans.PlanChanged;
import io.spillover.tenancy.QuotaChanged;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Turns what happened elsewhere into work for the scheduler, once the change is committed: each event
 * names the jobs it could concern, so a cycle evaluates those and no others. On the leader the work goes
 * straight to its scheduler; any other instance announces it to the leader in the same transaction.
 */
@Component
class WakeupEvents {

    private final Wakeups wakeups;
    private final ReplicaWakeups replicas;
    private final Leadership leadership;

    WakeupEvents(Wakeups wakeups, ReplicaWakeups replicas, Leadership leadership) {
        this.wakeups = wakeups;
        this.replicas = replicas;
        this.leadership = leadership;
    }

    private void deliver(Scope scope) {
        if (!leadership.leading()) {
            replicas.announce(scope); // a NOTIFY, sent by PostgreSQL if and only if the transaction commits
        } else if (TransactionSynchronizationManager.isSynchronizationActive()) {
            TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
                @Override
                public void afterCommit() {
                    wakeups.add(scope);
                }
            });
        } else {
            wakeups.add(scope);
        }
    }

    @EventListener
    void on(JobSubmitted event) {
        deliver(Scope.job(event.jobId(), Trigger.SUBMITTED));
    }

    /** Freed capacity concerns the jobs listing the offering, and the team's jobs (its headroom grew). */
    @EventListener
    void on(CapacityReleased event) {
        deliver(Scope.offering(event.offering(), Trigger.CAPACITY_RELEASED)
                .and(Scope.team(event.team(), Trigger.CAPACITY_RELEASED)));
    }

    @EventListener
    void on(CapacityChanged event) {
        deliver(Scope.offering(event.offering(), event.cause() == CapacityChanged.Cause.UNAVAILABLE_EXPIRED
                ? Trigger.UNAVAILABLE_EXPIRED : Trigger.CAPACITY_CHANGED));
    }

    @EventListener
    void on(QuotaChanged event) {
        deliver(Scope.team(event.team(), Trigger.QUOTA_CHANGED));
    }

    /** Only a strict-FIFO team's later jobs can move up, but a team's jobs are few to evaluate. */
    @EventListener
    void on(JobLeftQueue event) {
        deliver(Scope.team(event.team(), Trigger.JOB_LEFT_QUEUE));
    }

    /** A plan that became active, or was changed, may fit the jobs that name it. */
    @EventListener
    void on(PlanChanged event) {
        if (event.activated()) {
            deliver(Scope.offering(event.offering(), Trigger.PLAN_ACTIVATED));
        } else if (event.edited()) {
            deliver(Scope.offering(event.offering(), Trigger.PLAN_CHANGED));
        }
    }

    @EventListener
    void on(RequeuedAfterRefusal event) {
        deliver(Scope.job(event.jobId(), Trigger.LAUNCH_REFUSED)
                .and(Scope.team(event.team(), Trigger.CAPACITY_RELEASED)));
    }

    /** The job is pending again, and the instances its lost attempt held are free for others. */
    @EventListener
    void on(RequeuedAfterLoss event) {
        deliver(Scope.job(event.jobId(), Trigger.ATTEMPT_LOST)
                .and(Scope.offering(event.offering(), Trigger.CAPACITY_RELEASED))
                .and(Scope.team(event.team(), Trigger.CAPACITY_RELEASED)));
    }

    /** The preempted job waits again, and the instances it gave back are free for the job that reclaimed them. */
    @EventListener
    void on(RequeuedAfterPreemption event) {
        deliver(Scope.job(event.jobId(), Trigger.PREEMPTED)
                .and(Scope.offering(event.offering(), Trigger.CAPACITY_RELEASED))
                .and(Scope.team(event.team(), Trigger.CAPACITY_RELEASED)));
    }
}
