/**
 * What Spillover reports to Prometheus: placement, queue, utilization, provider errors, leadership.
 * <p>
 * Only reads: capacity's offerings (by placement's keys), jobs' placements and preemptions, the teams' borrowed
 * and lent instances, and the scheduler's leadership.
 */
@ApplicationModule(allowedDependencies = {"capacity", "jobs", "placement", "scheduling", "shared", "system",
        "tenancy"})
package io.spillover.metrics;

import org.springframework.modulith.ApplicationModule;
