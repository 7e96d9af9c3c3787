package io.spillover.jobs;

import io.spillover.catalog.JobKind;
import io.spillover.placement.JobTimeLimit;
import io.spillover.placement.RequestedEntry;
import io.spillover.placement.Requirements;
import io.spillover.providers.ContainerSpec;
import io.spillover.providers.LocalSettings;
import io.spillover.providers.SageMakerSettings;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.util.List;

/**
 * The body of a submission or an explain request (SPEC §5.1). Shape and value rules of single fields are
 * declared here; the rules that span fields and need the catalog, quotas and plans are the placement core's
 * {@link io.spillover.placement.SubmissionRules}. A job names a {@code profile} or gives
 * {@code instancePreferences}, never both. {@code fallbackAfterSeconds} is the job's patience: how long it waits
 * for each earlier entry before it may take the next (0: the first entry that fits; absent: its profile's, else
 * the platform's). {@code expectedRuntimeSeconds} is its user's hint of how long it runs: the scheduler ranks and
 * the start estimates reckon with it ({@link io.spillover.placement.ExpectedRuns}); unlike the maximum run time it
 * bounds nothing. {@code preemptible} says the job can be stopped and resumed from its checkpoint (under SageMaker
 * its {@code CheckpointConfig}, under the local provider the directory {@code SPILLOVER_CHECKPOINT_DIR} names): it may
 * then borrow idle quota of other teams beyond its maximum run time's bound, and be preempted when they need it back.
 */
public record JobRequest(
        @Pattern(regexp = "[a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}",
                message = "must be 1 to 63 letters, digits or hyphens, starting and ending with a letter or digit")
        String name,
        @NotNull JobKind kind,
        @Pattern(regexp = "[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?", message = "must name a profile of the team")
        String profile,
        List<Entry> instancePreferences,
        Integer instanceCount,
        Long maxPendingTimeInSeconds,
        @Min(1) @Max(JobTimeLimit.MAX_SECONDS) Long maxRuntimeInSeconds,
        @Min(1) @Max(JobTimeLimit.MAX_SECONDS) Long expectedRuntimeSeconds,
        @Min(0) @Max(JobTimeLimit.MAX_SECONDS) Long fallbackAfterSeconds,
        @Min(-1000) @Max(1000) Integer priority,
        @Size(min = 1, max = 128) @Pattern(regexp = "[\\x21-\\x7e]+", message = "must be printable ASCII without spaces")
        String clientToken,
        Requirements requires,
        @Valid ContainerSpec container,
        @Valid LocalSettings local,
        @Valid SageMakerSettings sagemaker,
        Boolean preemptible) {

    /** A request without a word on preemption: not preemptible. */
    public JobRequest(String name, JobKind kind, String profile, List<Entry> instancePreferences, Integer instanceCount,
                      Long maxPendingTimeInSeconds, Long maxRuntimeInSeconds, Long expectedRuntimeSeconds,
                      Long fallbackAfterSeconds, Integer priority, String clientToken, Requirements requires,
                      ContainerSpec container, LocalSettings local, SageMakerSettings sagemaker) {
        this(name, kind, profile, instancePreferences, instanceCount, maxPendingTimeInSeconds, maxRuntimeInSeconds,
                expectedRuntimeSeconds, fallbackAfterSeconds, priority, clientToken, requires, container, local, sagemaker,
                null);
    }

    /** One entry as written: {@code region} defaults to the provider's, {@code instanceCount} to the job's. */
    public record Entry(String instanceType, Integer instanceCount, String trainingPlan, String region) {

        RequestedEntry requested() {
            return new RequestedEntry(instanceType, instanceCount, trainingPlan, region);
        }
    }

    List<RequestedEntry> requestedEntries() {
        return instancePreferences == null ? null
                : instancePreferences.stream().map(e -> e == null ? null : e.requested()).toList();
    }
}
