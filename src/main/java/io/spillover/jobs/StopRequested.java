package io.spillover.jobs;

import java.time.Duration;

/**
 * A job on the provider is to be stopped (by a user, a limit or a preemption). Published after commit.
 *
 * @param grace how long the job may take to end once signalled before it is killed; null for the provider's own
 */
public record StopRequested(String providerJobName, Duration grace) {

    public StopRequested(String providerJobName) {
        this(providerJobName, null);
    }
}
