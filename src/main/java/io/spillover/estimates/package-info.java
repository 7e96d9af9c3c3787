/**
 * Estimated starts of pending jobs (issues #17 and #32): as jobs change, the instance that estimates runs the windows of
 * the queue a change could move forward in virtual time from one snapshot ({@code replay.Forecast}, the production
 * queue pass) and stores each pending job's estimate through jobs, which serves it on every instance.
 * <p>
 * Reads the platform as a cycle does: offerings, plans and teams (capacity), the pending and running jobs and their
 * history (jobs, and queue's {@code RunHistory} and fair shares); hears of changes from jobs ({@code JobsChanged});
 * asks scheduling whether this instance schedules ({@code Leadership}), and system for a pool of its own; forecasts
 * lend, borrow and reclaim guarantees under tenancy's sharing settings ({@code SharingProperties}), as the scheduler's
 * pass does.
 */
@ApplicationModule(allowedDependencies = {"capacity", "catalog", "jobs", "placement", "queue", "replay", "scheduling",
        "system", "tenancy"})
package io.spillover.estimates;

import org.springframework.modulith.ApplicationModule;
