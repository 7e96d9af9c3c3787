package io.spillover.jobs;

import io.spillover.placement.OfferingKey;
import java.util.UUID;

/**
 * A job's attempt was lost with what ran it and the job is pending again: it should be evaluated at once, and
 * the instances it held on {@code offering} are free again for the offering's other jobs and for its team.
 */
public record RequeuedAfterLoss(UUID jobId, String team, OfferingKey offering) {
}
