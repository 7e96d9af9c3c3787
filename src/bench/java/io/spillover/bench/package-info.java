/**
 * The benchmark runner of SPEC §7: runs the placement core's JMH benchmarks and the trace replay, writes
 * their results as JSON under {@code target/bench/} and their tables into {@code docs/benchmarks.md}.
 * Compiled and run only by the {@code bench} Maven profile.
 */
package io.spillover.bench;
