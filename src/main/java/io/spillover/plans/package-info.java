/**
 * Training plans: reserved capacity, each an offering of its own, used first by the entries that name it
 * and only by the teams it is shared with; its status follows its window under the local provider.
 * <p>
 * Each plan is an offering of capacity's; the provider is reached through PlanSource, which it implements.
 */
@ApplicationModule(allowedDependencies = {"capacity", "catalog", "placement", "shared", "system", "tenancy"})
package io.spillover.plans;

import org.springframework.modulith.ApplicationModule;
