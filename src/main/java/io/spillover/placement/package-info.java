/**
 * The placement core: preference lists, the checks at submission and the one-pass evaluation of a job
 * against a capacity snapshot. Pure Java: no Spring, no persistence, no clock, no I/O; time and capacity
 * come in as arguments and a {@link io.spillover.placement.Decision} with a reason per entry comes out.
 */
package io.spillover.placement;
