package io.spillover.providers;

/** What a provider answered to a launch. */
public sealed interface LaunchOutcome {

    /** The provider took the job; its progress arrives as {@link ProviderJobChanged} events. */
    record Launched() implements LaunchOutcome {
    }

    /** No capacity for this type now: the offering is marked unavailable and the job falls through. */
    record InsufficientCapacity(String message) implements LaunchOutcome {
    }

    /** Refused for another reason: the job fails with the provider's message. */
    record Failed(String message) implements LaunchOutcome {
    }
}
