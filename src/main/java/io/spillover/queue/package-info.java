/**
 * The queue policy as the service runs it: its configuration ({@code spillover.queue}) and each team's fair
 * share and expected run times, read from the jobs' history for the scheduler and the admin API.
 */
@ApplicationModule(allowedDependencies = {"catalog", "placement", "shared", "system"})
package io.spillover.queue;

import org.springframework.modulith.ApplicationModule;
