/**
 * The scheduler: woken by events (never polling the provider), each cycle takes a snapshot, lets the
 * placement core decide, then applies: books and launches selections, logs the rest. One instance
 * schedules at a time, elected through a PostgreSQL advisory lock.
 * <p>
 * Takes the snapshot, lets placement decide, and applies through jobs and the provider: it sits above them all.
 */
@ApplicationModule(allowedDependencies = {
        "capacity", "jobs", "placement", "plans", "providers", "queue", "shared", "system", "tenancy"})
package io.spillover.scheduling;

import org.springframework.modulith.ApplicationModule;
