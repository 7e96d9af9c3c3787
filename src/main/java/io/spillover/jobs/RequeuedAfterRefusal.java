package io.spillover.jobs;

import java.util.UUID;

/** A provider refused a launch for capacity; the job is pending again and should be evaluated at once. */
public record RequeuedAfterRefusal(UUID jobId, String team) {
}
