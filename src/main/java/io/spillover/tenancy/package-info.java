/**
 * Teams, their quotas and what they use: who may run what, and how much.
 * <p>
 * A team's view shows its fair share of the queue, which the queue module reads from the jobs' history.
 */
@ApplicationModule(allowedDependencies = {"catalog", "placement", "queue", "shared", "system"})
package io.spillover.tenancy;

import org.springframework.modulith.ApplicationModule;
