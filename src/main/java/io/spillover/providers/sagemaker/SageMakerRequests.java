package io.spillover.providers.sagemaker;

import io.spillover.placement.JobTimeLimit;
import io.spillover.providers.ContainerSpec;
import io.spillover.providers.LaunchRequest;
import io.spillover.providers.SageMakerSettings;
import io.spillover.providers.SageMakerVpc;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import software.amazon.awssdk.services.sagemaker.model.AlgorithmSpecification;
import software.amazon.awssdk.services.sagemaker.model.AppSpecification;
import software.amazon.awssdk.services.sagemaker.model.CreateProcessingJobRequest;
import software.amazon.awssdk.services.sagemaker.model.CreateTrainingJobRequest;
import software.amazon.awssdk.services.sagemaker.model.NetworkConfig;
import software.amazon.awssdk.services.sagemaker.model.OutputDataConfig;
import software.amazon.awssdk.services.sagemaker.model.ProcessingClusterConfig;
import software.amazon.awssdk.services.sagemaker.model.ProcessingResources;
import software.amazon.awssdk.services.sagemaker.model.ProcessingStoppingCondition;
import software.amazon.awssdk.services.sagemaker.model.ResourceConfig;
import software.amazon.awssdk.services.sagemaker.model.StoppingCondition;
import software.amazon.awssdk.services.sagemaker.model.Tag;
import software.amazon.awssdk.services.sagemaker.model.TrainingInputMode;
import software.amazon.awssdk.services.sagemaker.model.VpcConfig;

/**
 * The create calls for an attempt: the selected type, count and plan, the job's container, and its SageMaker
 * settings as settled at submission (its own over its team's over the configured defaults). The first element
 * of {@code command} is the entrypoint, the rest its arguments.
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
        var output = OutputDataConfig.builder()
                .s3OutputPath(settings.outputS3Uri() != null ? settings.outputS3Uri() : defaults.outputS3Uri());
        if (settings.kmsKeyId() != null) {
            output.kmsKeyId(settings.kmsKeyId());
            if (!hasInstanceStorage(request.instanceType())) {
                resources.volumeKmsKeyId(settings.kmsKeyId());
            }
        }
        var create = CreateTrainingJobRequest.builder()
                .trainingJobName(request.providerJobName())
                .algorithmSpecification(algorithm.build())
                .roleArn(role(settings))
                .outputDataConfig(output.build())
                .resourceConfig(resources.build())
                .stoppingCondition(StoppingCondition.builder().maxRuntimeInSeconds(maxRuntime(request)).build())
                .tags(tags(request, settings));
        if (settings.vpcConfig() != null) {
            create.vpcConfig(vpc(settings.vpcConfig()));
        }
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
        var cluster = ProcessingClusterConfig.builder()
                .instanceType(request.instanceType())
                .instanceCount(request.instanceCount())
                .volumeSizeInGB(volume(settings));
        if (settings.kmsKeyId() != null && !hasInstanceStorage(request.instanceType())) {
            cluster.volumeKmsKeyId(settings.kmsKeyId());
        }
        var create = CreateProcessingJobRequest.builder()
                .processingJobName(request.providerJobName())
                .appSpecification(app.build())
                .roleArn(role(settings))
                .processingResources(ProcessingResources.builder().clusterConfig(cluster.build()).build())
                .stoppingCondition(ProcessingStoppingCondition.builder()
                        .maxRuntimeInSeconds(maxRuntime(request)).build())
                .tags(tags(request, settings));
        if (settings.vpcConfig() != null) {
            create.networkConfig(NetworkConfig.builder().vpcConfig(vpc(settings.vpcConfig())).build());
        }
        if (!container.environment().isEmpty()) {
            create.environment(container.environment());
        }
        return create.build();
    }

    private static SageMakerSettings settings(LaunchRequest request) {
        return request.sagemaker() != null ? request.sagemaker() : SageMakerSettings.NONE;
    }

    /** The job's, settled at submission; the platform's only for a job stored before settings were settled. */
    private String role(SageMakerSettings settings) {
        return settings.roleArn() != null ? settings.roleArn() : defaults.roleArn();
    }

    private static VpcConfig vpc(SageMakerVpc vpc) {
        return VpcConfig.builder().securityGroupIds(vpc.securityGroupIds()).subnets(vpc.subnets()).build();
    }

    /**
     * Whether the type's instances carry NVMe instance storage, which SageMaker mounts instead of an EBS volume and
     * encrypts in hardware: it refuses a {@code VolumeKmsKeyId} for them. The families of the catalog that do, from
     * the EC2 instance type specifications; the others (c5, m5, p3, r5, t3) run on EBS.
     */
    static boolean hasInstanceStorage(String instanceType) {
        String family = instanceType.startsWith("ml.") ? instanceType.substring(3, instanceType.indexOf('.', 3))
                : instanceType;
        return INSTANCE_STORAGE_FAMILIES.contains(family);
    }

    private static final Set<String> INSTANCE_STORAGE_FAMILIES = Set.of("g4dn", "g5", "g6", "g6e", "p3dn", "p4d",
            "p4de", "p5", "p5e", "p5en", "p6-b200", "trn1", "trn1n", "trn2", "m5d", "c5d", "r5d");

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

    /**
     * Spillover's tags say whose job it is, so a look at the AWS console leads back to Spillover; the job's own (its
     * team's with its own over them) follow, sorted by key. The {@code spillover:} keys cannot be set by either.
     */
    private static List<Tag> tags(LaunchRequest request, SageMakerSettings settings) {
        var tags = new ArrayList<Tag>();
        Map.of("spillover:team", request.team(), "spillover:job", request.jobName()).entrySet().stream()
                .sorted(Map.Entry.comparingByKey())
                .forEach(e -> tags.add(Tag.builder().key(e.getKey()).value(e.getValue()).build()));
        new TreeMap<>(settings.tags()).forEach((key, value) -> tags.add(Tag.builder().key(key).value(value).build()));
        return tags;
    }
}
