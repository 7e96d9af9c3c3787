package io.spillover.jobs;

import java.time.Instant;
import java.util.UUID;

/** One change of a job's status, as stored in the append-only log. */
record Transition(UUID jobId, String team, Instant at, JobStatus from, JobStatus to, StatusReason reason,
                  String message, int attempt) {
}
