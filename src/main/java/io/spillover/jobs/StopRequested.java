package io.spillover.jobs;

/** A job on the provider is to be stopped (by a user or a limit). Published after commit. */
public record StopRequested(String providerJobName) {
}
