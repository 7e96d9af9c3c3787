/**
 * Named, versioned preference profiles a team saves once and its jobs reuse.
 * <p>
 * A profile is checked like a job's list (placement's rules, the plans shared with the team); its controller
 * reads the caller (security).
 */
@ApplicationModule(allowedDependencies = {
        "catalog", "placement", "plans", "security", "shared", "system", "tenancy"})
package io.spillover.profiles;

import org.springframework.modulith.ApplicationModule;
