package io.spillover.jobs;

import io.spillover.providers.ContainerSpec;
import io.spillover.providers.LocalSettings;
import io.spillover.providers.SageMakerSettings;
import io.spillover.placement.Requirements;

/** The parts of a job only its provider reads; stored as one JSON document. */
record JobSpec(ContainerSpec container, LocalSettings local, SageMakerSettings sagemaker, Requirements requires) {
}
