package io.spillover.providers;

import io.spillover.capacity.ProviderFleet;
import io.spillover.plans.PlanSource;
import io.spillover.catalog.JobKind;
import io.spillover.shared.Violation;
import java.util.List;
import java.util.Optional;

/**
 * Where jobs run. One is active per deployment; the scheduler and placement core do not know which. It serves
 * capacity its fleet ({@link ProviderFleet}) and plans their status ({@link PlanSource}) through their own
 * ports, so those features do not depend on providers.
 */
public interface CapacityProvider extends ProviderFleet, PlanSource {

    /** Starts an attempt; launching an attempt it already knows answers {@link LaunchOutcome.Launched} again. */
    LaunchOutcome launch(LaunchRequest request);

    /** Asks the provider to stop an attempt; the end arrives as a {@link ProviderJobChanged} event. */
    void stop(String providerJobName);

    /**
     * Asks the provider to stop an attempt that may take {@code grace} to end once signalled (to save a checkpoint)
     * before it is killed; a provider whose stop has a grace of its own (SageMaker's 120 s) keeps it. A repeated stop
     * of an attempt already being stopped does not shorten its grace.
     */
    default void stop(String providerJobName, java.time.Duration grace) {
        stop(providerJobName);
    }

    /**
     * The provider's view of an attempt, empty when it never heard of it. Throws when the provider cannot be
     * reached: the caller then leaves the job as it is.
     */
    Optional<ProviderJobStatus> describe(String providerJobName);

    /** The job's output, or where to find it. */
    Optional<String> logs(String providerJobName);

    /**
     * The settling of a team's jobs' provider settings at submission, read once for a batch of the team's jobs;
     * by default the settings are kept as given.
     */
    default JobSettings jobSettings(String team) {
        return JobSettings.AS_GIVEN;
    }

    /**
     * Why a job of this kind, with its settings as settled, could not be stopped and resumed from a checkpoint under
     * this provider, each naming the job's field; empty when it can, and so may opt in to preemption. By default
     * every job can: the provider hands each attempt the same checkpoint location.
     */
    default List<Violation> checkpointProblems(JobKind kind, SageMakerSettings settled) {
        return List.of();
    }

    /** A narrower range for {@code maxPendingTimeInSeconds} than the configured one, if the provider has one. */
    default Optional<PendingTimeRange> pendingTimeRange() {
        return Optional.empty();
    }
}
