package io.spillover.jobs;

import io.spillover.catalog.JobKind;
import io.spillover.placement.PlacementRequest;
import io.spillover.placement.PreferenceList;
import io.spillover.placement.QueuedRequest;
import java.time.Instant;
import java.util.UUID;

/** A pending job as the scheduler reads it: enough to evaluate it, nothing more. */
public record QueuedJob(UUID id, String team, JobKind kind, int priority, Instant createdAt,
                        PreferenceList preferences) {

    public QueuedRequest<UUID> queued() {
        return new QueuedRequest<>(id, new PlacementRequest(team, kind, preferences), priority, createdAt);
    }
}
