package io.spillover.scheduling;

import java.time.Instant;

/**
 * A scheduling cycle evaluated the queue (and applied what it decided), on the instance that schedules: the queue,
 * the capacity or the jobs holding it may have changed since the cycle before. Published on the scheduler's thread,
 * after the cycle's writes committed; a listener must not hold that thread up.
 *
 * @param sweep whether it was the periodic safety sweep, which evaluates every pending job
 */
public record QueueEvaluated(Instant at, boolean sweep) {
}
