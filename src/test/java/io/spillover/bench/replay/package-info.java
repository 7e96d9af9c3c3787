/**
 * Trace replay in virtual time: a discrete-event simulation that serves a GPU-cluster trace with the
 * production placement core ({@link io.spillover.placement.QueuePass}, {@link io.spillover.placement.Placement},
 * {@link io.spillover.placement.Capacity}) under single-type jobs, preference lists and a client-side polling
 * script. No clock, no HTTP, no Spring. It lives with the tests so that the normal build compiles it against
 * the core and runs its tests; the bench profile's runner drives it on the real trace.
 */
package io.spillover.bench.replay;
