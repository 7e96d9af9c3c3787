package io.spillover.jobs;

import io.spillover.providers.LaunchRequest;
import java.util.UUID;

/** A job was placed and committed STARTING: its attempt is to be launched on the provider. */
public record LaunchReady(UUID jobId, int attempt, LaunchRequest request) {
}
