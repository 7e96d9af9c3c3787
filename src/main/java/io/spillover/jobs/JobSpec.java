package io.spillover.jobs;

import io.spillover.placement.Requirements;
import io.spillover.providers.ContainerSpec;
import io.spillover.providers.LocalSettings;
import io.spillover.providers.SageMakerSettings;
import java.util.HashMap;
import java.util.Map;

/**
 * The parts of a job only its provider and the queue policy read; stored as one JSON document.
 *
 * @param fallbackAfterSeconds the job's patience for its earlier entries (its own or its profile's), null for the
 *                             platform's ({@code spillover.queue.fallback-after}); 0 takes the first entry that fits
 * @param expectedRuntimeSeconds its user's hint of its run, null for none
 */
record JobSpec(ContainerSpec container, LocalSettings local, SageMakerSettings sagemaker, Requirements requires,
               Long fallbackAfterSeconds, Long expectedRuntimeSeconds) {

    /** This spec with tags added to its SageMaker settings, a tag of the same key taking the new value (AddTags). */
    JobSpec tagged(Map<String, String> added) {
        SageMakerSettings settings = sagemaker == null ? SageMakerSettings.NONE : sagemaker;
        var tags = new HashMap<>(settings.tags());
        tags.putAll(added);
        return new JobSpec(container, local, new SageMakerSettings(settings.roleArn(), settings.outputS3Uri(),
                settings.hyperParameters(), settings.volumeSizeInGB(), settings.vpcConfig(), settings.kmsKeyId(), tags,
                settings.passThrough()), requires, fallbackAfterSeconds, expectedRuntimeSeconds);
    }
}
