package io.spillover.providers;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Where jobs run. One is active per deployment; the scheduler and placement core do not know which. */
public interface CapacityProvider {

    /** A short name stored with every offering ("local", "sagemaker"). */
    String name();

    String defaultRegion();

    Set<String> regions();

    /** On-demand capacity as the provider declares it at startup. */
    List<FleetOffering> fleet();

    /** Starts an attempt; launching an attempt it already knows answers {@link LaunchOutcome.Launched} again. */
    LaunchOutcome launch(LaunchRequest request);

    /** Asks the provider to stop an attempt; the end arrives as a {@link ProviderJobChanged} event. */
    void stop(String providerJobName);

    /**
     * The provider's view of an attempt, empty when it never heard of it. Throws when the provider cannot be
     * reached: the caller then leaves the job as it is.
     */
    Optional<ProviderJobStatus> describe(String providerJobName);

    /** The job's output, or where to find it. */
    Optional<String> logs(String providerJobName);

    /** A narrower range for {@code maxPendingTimeInSeconds} than the configured one, if the provider has one. */
    default Optional<PendingTimeRange> pendingTimeRange() {
        return Optional.empty();
    }

    /**
     * Whether training plans move with their registered window (SCHEDULED, ACTIVE, EXPIRED by the clock).
     * False when the provider knows their status and counts itself, through {@link #describePlans}.
     */
    default boolean plansFollowTheirWindow() {
        return true;
    }

    /** The provider's view of registered plans, by ARN; plans it does not know are left out. */
    default Map<String, ProviderPlan> describePlans(List<PlanRef> plans) {
        return Map.of();
    }
}
