package io.spillover.providers;

import java.util.List;
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

    /** The provider's view of an attempt, empty when it never heard of it. */
    Optional<ProviderJobStatus> describe(String providerJobName);

    /** The job's output, or where to find it. */
    Optional<String> logs(String providerJobName);
}
