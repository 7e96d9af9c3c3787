package io.spillover.jobs;

import java.util.UUID;

/** A job joined the queue. Published after commit. */
public record JobSubmitted(UUID jobId, String team) {
}
