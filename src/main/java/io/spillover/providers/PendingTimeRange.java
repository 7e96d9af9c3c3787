package io.spillover.providers;

import java.time.Duration;

/** The range of {@code maxPendingTimeInSeconds} a provider accepts; it narrows the configured one. */
public record PendingTimeRange(Duration min, Duration max) {
}
