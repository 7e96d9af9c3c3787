/**
 * Offerings: the capacity each (region, instance type, source) has, what is in use, and unavailable marks.
 * <p>
 * Its snapshot holds teams' use beside the offerings (tenancy); its controller reads the caller (security)
 * to show a team only the offerings it may use.
 */
@ApplicationModule(allowedDependencies = {"catalog", "placement", "security", "shared", "system", "tenancy"})
package io.spillover.capacity;

import org.springframework.modulith.ApplicationModule;
