/** Offerings: the capacity each (region, instance type, source) has, what is in use, and unavailable marks. */
package io.spillover.capacity;
