package io.spillover.providers.sagemaker;

import io.spillover.placement.JobTimeLimit;
import io.spillover.providers.ContainerSpec;
import io.spillover.providers.LaunchRequest;
import io.spillover.providers.SageMakerSettings;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.sagemaker.model.AlgorithmSpecification;
import software.amazon.awssdk.services.sagemaker.model.AppSpecification;
import software.amazon.awssdk.services.sagemaker.model.CreateProcessingJobRequest;
import software.amazon.awssdk.services.sagemaker.model.CreateTrainingJobRequest;
import software.amazon.awssdk.services.sagemaker.model.OutputDataConfig;
import software.amazon.awssdk.services.sagemaker.model.ProcessingClusterConfig;
import software.amazon.awssdk.services.sagemaker.model.ProcessingResources;
import software.amazon.awssdk.services.sagemaker.model.ProcessingStoppingCondition;
import software.amazon.awssdk.services.sagemaker.model.ResourceConfig;
import software.amazon.awssdk.services.sagemaker.model.StoppingCondition;
import software.amazon.awssdk.services.sagemaker.model.Tag;
import software.amazon.awssdk.services.sagemaker.model.TrainingInputMode;

/**
 * The create calls for an attempt: the selected type, count and plan, the job's container, and its SageMaker
 * settings over the configured defaults. The first element of {@code command} is the entrypoint, the rest
 * its arguments.
 */
final class SageMakerRequests {

    /** SageMaker's default run time of a job that sets none (5 days); the most is {@link JobTimeLimit}. */
    static final long DEFAULT_MAX_RUNTIME = 432_000;

    private final SageMakerProperties defaults;

    SageMakerRequests(SageMakerProperties defaults) {
        this.defaults = defaults;
    }

    CreateTrainingJobRequest training(LaunchRequest request) {
        SageMakerSettings settings = settings(request);
        ContainerSpec container = container(request);
        var algorithm = AlgorithmSpecification.builder()
                .trainingImage(container.image())
                .trainingInputMode(TrainingInputMode.FILE);
        if (!container.command().isEmpty()) {
            algorithm.containerEntrypoint(container.command().get(0));
            if (container.command().size() > 1) {
                algorithm.containerArguments(container.command().subList(1, container.command().size()));
            }
        }
        var resources = ResourceConfig.builder()
                .instanceType(request.instanceType())
                .instanceCount(request.instanceCount())
                .volumeSizeInGB(volume(settings));
        if (request.trainingPlanArn() != null) {
            resources.trainingPlanArn(request.trainingPlanArn());
        }
        var create = CreateTrainingJobRequest.builder()
                .trainingJobName(request.providerJobName())
                .algorithmSpecification(algorithm.build())
                .roleArn(settings.roleArn() != null ? settings.roleArn() : defaults.roleArn())
                .outputDataConfig(OutputDataConfig.builder().s3OutputPath(
                        settings.outputS3Uri() != null ? settings.outputS3Uri() : defaults.outputS3Uri()).build())
                .resourceConfig(resources.build())
                .stoppingCondition(StoppingCondition.builder().maxRuntimeInSeconds(maxRuntime(request)).build())
                .tags(tags(request));
        if (!container.environment().isEmpty()) {
            create.environment(container.environment());
        }
        if (!settings.hyperParameters().isEmpty()) {
            create.hyperParameters(settings.hyperParameters());
        }
        return create.build();
    }

    CreateProcessingJobRequest processing(LaunchRequest request) {
        SageMakerSettings settings = settings(request);
        ContainerSpec container = container(request);
        var app = AppSpecification.builder().imageUri(container.image());
        if (!container.command().isEmpty()) {
            app.containerEntrypoint(container.command());
        }
        var create = CreateProcessingJobRequest.builder()
                .processingJobName(request.providerJobName())
                .appSpecification(app.build())
                .roleArn(settings.roleArn() != null ? settings.roleArn() : defaults.roleArn())
                .processingResources(ProcessingResources.builder().clusterConfig(ProcessingClusterConfig.builder()
                        .instanceType(request.instanceType())
                        .instanceCount(request.instanceCount())
                        .volumeSizeInGB(volume(settings))
                        .build()).build())
                .stoppingCondition(ProcessingStoppingCondition.builder()
                        .maxRuntimeInSeconds(maxRuntime(request)).build())
                .tags(tags(request));
        if (!container.environment().isEmpty()) {
            create.environment(container.environment());
        }
        return create.build();
    }

    private static SageMakerSettings settings(LaunchRequest request) {
        return request.sagemaker() != null ? request.sagemaker() : new SageMakerSettings(null, null, null, null);
    }

    private static ContainerSpec container(LaunchRequest request) {
        return request.container() != null ? request.container() : new ContainerSpec(null, null, null);
    }

    private int volume(SageMakerSettings settings) {
        return settings.volumeSizeInGB() != null ? settings.volumeSizeInGB() : defaults.volumeSizeGb();
    }

    private static int maxRuntime(LaunchRequest request) {
        return (int) (request.maxRuntimeSeconds() == null ? DEFAULT_MAX_RUNTIME
                : Math.min(JobTimeLimit.MAX_SECONDS, request.maxRuntimeSeconds()));
    }

    /** Tags say whose job it is, so a look at the AWS console leads back to Spillover. */
    private static List<Tag> tags(LaunchRequest request) {
        return Map.of("spillover:team", request.team(), "spillover:job", request.jobName()).entrySet().stream()
                .sorted(Map.Entry.comparingByKey())
                .map(e -> Tag.builder().key(e.getKey()).value(e.getValue()).build())
                .toList();
    }
}
