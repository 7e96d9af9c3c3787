/** What every module leans on: the embedded database, the clock, configuration and error responses. */
@ApplicationModule(allowedDependencies = {"shared"})
package io.spillover.system;

import org.springframework.modulith.ApplicationModule;
