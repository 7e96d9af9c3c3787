/** The built-in catalog of SageMaker instance types and the facts placement and checks rely on. */
@ApplicationModule(allowedDependencies = {"shared", "system"})
package io.spillover.catalog;

import org.springframework.modulith.ApplicationModule;
