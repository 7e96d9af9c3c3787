/** Teams, their quotas and what they use: who may run what, and how much. */
@ApplicationModule(allowedDependencies = {"catalog", "placement", "shared", "system"})
package io.spillover.tenancy;

import org.springframework.modulith.ApplicationModule;
