package io.spillover.jobs;

import java.time.Instant;

public record TransitionView(Instant at, JobStatus from, JobStatus to, StatusReason reason, String message,
                             int attempt) {
}
