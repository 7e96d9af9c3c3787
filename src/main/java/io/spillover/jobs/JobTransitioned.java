package io.spillover.jobs;

import java.util.UUID;

/** A job changed status; published after commit, so that pages watching it can update. */
public record JobTransitioned(UUID jobId, String team, String job, JobStatus status) {
}
