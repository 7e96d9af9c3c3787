package io.spillover.providers;

/** A provider saw a job of its change state; {@code message} says why in the provider's words. */
public record ProviderJobChanged(String providerJobName, ProviderJobStatus status, String message) {
}
