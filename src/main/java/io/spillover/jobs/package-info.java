/**
 * Jobs: submission and its checks, the job's life from PENDING to its end, and its audit trail.
 * <p>
 * The job's life books capacity, team use and plans, and launches through the provider's types. Its history
 * of runs is what fair share reads, through the queue module's port {@code RunHistory}.
 */
@ApplicationModule(allowedDependencies = {
        "audit", "capacity", "catalog", "placement", "plans", "profiles", "providers", "queue", "shared", "system",
        "tenancy"})
package io.spillover.jobs;

import org.springframework.modulith.ApplicationModule;
