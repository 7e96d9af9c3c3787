/**
 * The browser console: server-rendered pages over the same services as the REST API.
 * <p>
 * It may use the API of any module, and no module may use it.
 */
@ApplicationModule(allowedDependencies = {
        "capacity", "catalog", "demo", "jobs", "placement", "plans", "profiles", "providers", "security", "shared",
        "system", "tenancy", "webhooks", "whatif"})
package io.spillover.console;

import org.springframework.modulith.ApplicationModule;
