/**
 * Replay in virtual time: a discrete-event simulation that serves a stream of submissions (a GPU-cluster trace, or
 * the platform's own history) on a given fleet with the production placement core ({@link
 * io.spillover.placement.QueuePass}, {@link io.spillover.placement.Placement}, {@link
 * io.spillover.placement.Capacity}, {@link io.spillover.placement.ExpectedRuns}) under single-type jobs, preference
 * lists, the queue policies and client-side polling scripts. The benchmark runner and the what-if runs drive it.
 * <p>
 * Pure like the core, and held to it by ArchitectureTest: it may use the JDK's language, collections and time
 * types, {@code java.io} only to read a trace from a stream its caller opened, the placement core, the catalog and
 * the shared kernel; no Spring, no persistence, no files or network, no JSON library and no clock (virtual seconds
 * come in with the jobs; a caller who wants real elapsed time hands in its own stopwatch). Like {@code placement},
 * it carries no {@code @ApplicationModule}, so that nothing of Spring reaches it.
 */
package io.spillover.replay;
