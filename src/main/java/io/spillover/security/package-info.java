/**
 * Who is calling and what they may do: API tokens and console sign-in, team roles, tenant isolation
 * (another team's things answer 404), limits on failed attempts, and the gate every change passes.
 * <p>
 * Writes the audit log of failed sign-ins and refused calls; checks memberships against tenancy's teams.
 */
@ApplicationModule(allowedDependencies = {"audit", "shared", "system", "tenancy"})
package io.spillover.security;

import org.springframework.modulith.ApplicationModule;
