/**
 * Estimated starts of pending jobs (issue #17): after the scheduling cycles that change the queue, the scheduling
 * instance runs the queue forward in virtual time from one snapshot ({@code replay.Forecast}, the production queue
 * pass) and stores each pending job's estimate through jobs, which serves it on every instance.
 * <p>
 * Reads the platform as a cycle does: offerings, plans and teams (capacity), the pending and running jobs and their
 * history (jobs, and queue's {@code RunHistory} and fair shares); wakes on scheduling's {@code QueueEvaluated}.
 */
@ApplicationModule(allowedDependencies = {"capacity", "catalog", "jobs", "placement", "queue", "replay", "scheduling",
        "system"})
package io.spillover.estimates;

import org.springframework.modulith.ApplicationModule;
