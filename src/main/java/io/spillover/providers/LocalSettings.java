package io.spillover.providers;

import io.spillover.placement.JobTimeLimit;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;

/**
 * How the local provider simulates a job without a command: it runs for {@code runtimeSeconds} and ends
 * with {@code exitCode} (0: completed, otherwise failed). Null fields take the configured defaults.
 */
public record LocalSettings(@Min(0) @Max(JobTimeLimit.MAX_SECONDS) Long runtimeSeconds, @Min(0) @Max(255) Integer exitCode) {
}
