/**
 * The boundary to where jobs run: what a capacity provider must do (launch, stop, describe, report what
 * happened) and the events it reports with. Implementations live in subpackages.
 */
package io.spillover.providers;
