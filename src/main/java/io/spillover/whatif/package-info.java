/**
 * What-if runs: the platform's own history over a window, or an uploaded trace, replayed in the background on the
 * live configuration and on a copy changed by a set of edits, with the same production placement code
 * ({@code replay}), compared and kept.
 * <p>
 * Reads, never writes: the jobs' history (jobs), the offerings (capacity), plans, teams' rules (tenancy), the queue
 * policy (queue) and the catalog; names who started a run (security). Writes only its own table.
 */
@ApplicationModule(allowedDependencies = {"capacity", "catalog", "jobs", "placement", "plans", "queue", "replay",
        "security", "shared", "system", "tenancy"})
package io.spillover.whatif;

import org.springframework.modulith.ApplicationModule;
