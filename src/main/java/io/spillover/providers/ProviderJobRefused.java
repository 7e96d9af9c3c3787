package io.spillover.providers;

/**
 * A provider took an attempt but then could not run it for capacity (SageMaker failing it with a
 * {@code CapacityError}, or leaving it waiting for capacity too long). Handled like a launch refused for
 * capacity: the offering is marked, and the job falls through to its next entry as a new attempt.
 */
public record ProviderJobRefused(String providerJobName, String message, Refusal refusal) {
}
