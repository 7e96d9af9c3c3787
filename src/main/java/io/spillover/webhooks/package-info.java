/**
 * Webhooks: a team's hooks, the transactional outbox of its jobs' events (written in the transaction of the
 * change each reports), and the dispatcher that delivers them signed, in order per job, at least once.
 * <p>
 * Reads job changes (jobs' {@code JobTransitioned}, in the changing transaction) and the jobs' described views;
 * a hook belongs to a team (tenancy).
 */
@ApplicationModule(allowedDependencies = {"jobs", "security", "shared", "system", "tenancy"})
package io.spillover.webhooks;

import org.springframework.modulith.ApplicationModule;
