package io.spillover.jobs;

import io.spillover.placement.OfferingKey;
import java.util.UUID;

/**
 * A preempted job's attempt has stopped and the job is pending again: the instances it held on {@code offering} are
 * free for the job that reclaimed them (and the offering's other jobs), and the job itself waits to be placed again.
 */
public record RequeuedAfterPreemption(UUID jobId, String team, OfferingKey offering) {
}
