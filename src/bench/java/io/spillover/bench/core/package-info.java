/**
 * JMH micro-benchmarks of the placement core: evaluations per second of {@code Placement#decide} for 1- and
 * 5-entry lists, and of {@code QueuePass#decide} over a long queue, against a snapshot of realistic size.
 */
package io.spillover.bench.core;
