package io.spillover.providers;

import java.util.Objects;

/** What a provider answered to a launch. */
public sealed interface LaunchOutcome {

    /** The provider took the job; its progress arrives as {@link ProviderJobChanged} events. */
    record Launched() implements LaunchOutcome {
    }

    /** No capacity (or quota) for this type now: the offering is marked unavailable and the job falls through. */
    record InsufficientCapacity(String message, Refusal refusal) implements LaunchOutcome {

        public InsufficientCapacity {
            Objects.requireNonNull(refusal, "refusal");
        }

        public InsufficientCapacity(String message) {
            this(message, Refusal.INSUFFICIENT_CAPACITY);
        }
    }

    /** Refused for another reason: the job fails with the provider's message. */
    record Failed(String message) implements LaunchOutcome {
    }
}
