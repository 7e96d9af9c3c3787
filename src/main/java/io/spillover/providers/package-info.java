/**
 * The boundary to where jobs run: what a capacity provider must do (launch, stop, describe, report what
 * happened) and the events it reports with. Implementations live in subpackages.
 * <p>
 * Implements capacity's ProviderFleet and plans' PlanSource, so those features do not depend on providers. Keeps
 * each team's SageMaker defaults, for which it asks tenancy whether the team exists.
 */
@ApplicationModule(allowedDependencies = {"capacity", "catalog", "placement", "plans", "shared", "system", "tenancy"})
package io.spillover.providers;

import org.springframework.modulith.ApplicationModule;
