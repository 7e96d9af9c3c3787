package io.spillover.jobs;

import java.util.UUID;

/** A pending job left the queue without starting (stopped, expired): jobs behind it may move up. */
public record JobLeftQueue(UUID jobId, String team) {
}
