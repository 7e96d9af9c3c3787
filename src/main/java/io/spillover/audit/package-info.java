/** The append-only record of who did what to the platform, and of failed sign-ins and token uses. */
@ApplicationModule(allowedDependencies = {"shared", "system"})
package io.spillover.audit;

import org.springframework.modulith.ApplicationModule;
