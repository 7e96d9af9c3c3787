package io.spillover.jobs;

import io.spillover.providers.ContainerSpec;
import io.spillover.providers.LocalSettings;
import io.spillover.providers.SageMakerSettings;
import io.spillover.placement.Requirements;

/**
 * The parts of a job only its provider and the queue policy read; stored as one JSON document.
 *
 * @param fallbackAfterSeconds the job's patience for its earlier entries (its own or its profile's), null for the
 *                             platform's ({@code spillover.queue.fallback-after}); 0 takes the first entry that fits
 * @param expectedRuntimeSeconds its user's hint of its run, null for none
 */
record JobSpec(ContainerSpec container, LocalSettings local, SageMakerSettings sagemaker, Requirements requires,
               Long fallbackAfterSeconds, Long expectedRuntimeSeconds) {
}
