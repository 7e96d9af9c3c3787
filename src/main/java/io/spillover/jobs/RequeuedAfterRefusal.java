package io.spillover.jobs;

import java.util.UUID;

/**
 * A provider refused a launch for capacity: the job is pending again and should be evaluated at once, and
 * the capacity it held is free again for its team.
 */
public record RequeuedAfterRefusal(UUID jobId, String team) {
}
