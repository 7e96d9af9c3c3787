package io.spillover.providers;

import io.spillover.catalog.JobKind;
import java.util.Objects;
import java.util.UUID;

/**
 * One attempt to start a job on the selected entry. {@code providerJobName} is derived from the job's id
 * and attempt, so launching the same attempt twice finds the first launch instead of making a second.
 *
 * @param trainingPlan    the plan's name when the entry takes plan capacity, else null
 * @param trainingPlanArn the plan's ARN as registered, when it has one (SageMaker needs it)
 * @param sagemaker       the job's SageMaker settings, or null
 * @param preemptible     the job can be stopped and resumed: every attempt of it must find the same checkpoint
 * @param jobId           the job's id, the same for each of its attempts
 */
public record LaunchRequest(String providerJobName, UUID jobId, String team, String jobName, JobKind kind,
                            String instanceType, int instanceCount, String region, String trainingPlan,
                            String trainingPlanArn, ContainerSpec container, LocalSettings local,
                            SageMakerSettings sagemaker, Long maxRuntimeSeconds, boolean preemptible) {

    public LaunchRequest {
        Objects.requireNonNull(providerJobName, "providerJobName");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(instanceType, "instanceType");
        Objects.requireNonNull(region, "region");
    }
}
