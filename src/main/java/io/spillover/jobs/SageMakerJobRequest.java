package io.spillover.jobs;

import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.spillover.catalog.JobKind;
import io.spillover.providers.ContainerSpec;
import io.spillover.providers.SageMakerSettings;
import io.spillover.shared.InvalidRequestException;
import io.spillover.shared.Violation;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@code CreateTrainingJob} or {@code CreateProcessingJob} body as the AWS CLI or boto3 sends it, in the SageMaker
 * API's PascalCase. The name field tells the kind: {@code TrainingJobName} a training job, {@code ProcessingJobName}
 * a processing job. The fields Spillover models become the ordinary {@link JobRequest}; every other field, at the
 * top or inside the objects named here, is kept with the job as {@link SageMakerSettings#passThrough()} and sent
 * with its create call as given. {@code ClientToken} is Spillover's own addition (SageMaker's create calls have
 * none): a retry with the same token answers the job the first call made.
 */
@Schema(description = "A CreateTrainingJob or CreateProcessingJob request body as the AWS CLI or boto3 sends it."
        + " Fields not listed here are kept with the job and sent with its create call as given.")
public record SageMakerJobRequest(
        @JsonProperty("TrainingJobName") String trainingJobName,
        @JsonProperty("ProcessingJobName") String processingJobName,
        @JsonProperty("ClientToken") String clientToken,
        @JsonProperty("RoleArn") String roleArn,
        @JsonProperty("AlgorithmSpecification") Algorithm algorithmSpecification,
        @JsonProperty("AppSpecification") App appSpecification,
        @JsonProperty("OutputDataConfig") Output outputDataConfig,
        @JsonProperty("ResourceConfig") Resources resourceConfig,
        @JsonProperty("ProcessingResources") ProcessingResources processingResources,
        @JsonProperty("StoppingCondition") Stopping stoppingCondition,
        @JsonProperty("HyperParameters") Map<String, String> hyperParameters,
        @JsonProperty("Environment") Map<String, String> environment,
        @Schema(hidden = true) @JsonAnySetter Map<String, Object> others) {

    public SageMakerJobRequest {
        others = others == null ? new LinkedHashMap<>() : others;
    }

    /** {@code TrainingImage} is the job's image; the rest ({@code ContainerEntrypoint}, ...) passes through. */
    public record Algorithm(@JsonProperty("TrainingImage") String trainingImage,
                            @Schema(hidden = true) @JsonAnySetter Map<String, Object> others) {
        public Algorithm {
            others = others == null ? new LinkedHashMap<>() : others;
        }
    }

    /** {@code ImageUri} is the job's image; the rest ({@code ContainerEntrypoint}, ...) passes through. */
    public record App(@JsonProperty("ImageUri") String imageUri,
                      @Schema(hidden = true) @JsonAnySetter Map<String, Object> others) {
        public App {
            others = others == null ? new LinkedHashMap<>() : others;
        }
    }

    /** {@code S3OutputPath} is the job's output location; the rest ({@code KmsKeyId}, ...) passes through. */
    public record Output(@JsonProperty("S3OutputPath") String s3OutputPath,
                         @Schema(hidden = true) @JsonAnySetter Map<String, Object> others) {
        public Output {
            others = others == null ? new LinkedHashMap<>() : others;
        }
    }

    /** A training job's instances: one type ({@code InstanceType}) or a list ({@code InstancePreferences}). */
    public record Resources(@JsonProperty("InstanceType") String instanceType,
                            @JsonProperty("InstanceCount") Integer instanceCount,
                            @JsonProperty("VolumeSizeInGB") Integer volumeSizeInGB,
                            @JsonProperty("TrainingPlanArn") String trainingPlanArn,
                            @JsonProperty("InstancePreferences") List<Preference> instancePreferences,
                            @Schema(hidden = true) @JsonAnySetter Map<String, Object> others) {
        public Resources {
            others = others == null ? new LinkedHashMap<>() : others;
        }
    }

    public record ProcessingResources(@JsonProperty("ClusterConfig") Resources clusterConfig,
                                      @Schema(hidden = true) @JsonAnySetter Map<String, Object> others) {
        public ProcessingResources {
            others = others == null ? new LinkedHashMap<>() : others;
        }
    }

    /**
     * One entry of {@code InstancePreferences}. The API reference gives an entry's plan as {@code TrainingPlanArns}
     * (a list of at most one); {@code TrainingPlanArn}, as {@code ResourceConfig} spells it, is taken too.
     */
    public record Preference(@JsonProperty("InstanceType") String instanceType,
                             @JsonProperty("InstanceCount") Integer instanceCount,
                             @JsonProperty("TrainingPlanArn") String trainingPlanArn,
                             @JsonProperty("TrainingPlanArns") List<String> trainingPlanArns) {
    }

    /** {@code MaxRuntimeInSeconds} and {@code MaxPendingTimeInSeconds} are the job's; the rest passes through. */
    public record Stopping(@JsonProperty("MaxRuntimeInSeconds") Long maxRuntimeInSeconds,
                           @JsonProperty("MaxPendingTimeInSeconds") Long maxPendingTimeInSeconds,
                           @Schema(hidden = true) @JsonAnySetter Map<String, Object> others) {
        public Stopping {
            others = others == null ? new LinkedHashMap<>() : others;
        }
    }

    /**
     * The ordinary request this body makes, and how to name its fields back in the body's words.
     *
     * @param singleType the one {@code InstanceType} the body asked for without a plan (null when it gave a list, a
     *                   plan or no type): a team's {@code default} profile may stand in for it
     */
    record Mapped(JobRequest request, Function<String, String> fieldOf, JobRequest.Entry singleType) {

        /** The refusal of the ordinary request, with each field named as the body names it. */
        InvalidRequestException renamed(InvalidRequestException refused) {
            var violations = refused.violations().stream()
                    .map(v -> v.at(fieldOf.apply(v.field()))).toList();
            if (refused instanceof JobNameTakenException) {
                return new JobNameTakenException(violations.get(0).field(), violations.get(0).message());
            }
            return new InvalidRequestException(violations);
        }

        /** The same request placed by the team's profile instead of its one type. */
        Mapped byProfile(String profile) {
            JobRequest r = request;
            return new Mapped(new JobRequest(r.name(), r.kind(), profile, null, null, r.maxPendingTimeInSeconds(),
                    r.maxRuntimeInSeconds(), r.expectedRuntimeSeconds(), r.fallbackAfterSeconds(), r.priority(),
                    r.clientToken(), r.requires(), r.container(), r.local(), r.sagemaker()), fieldOf, null);
        }
    }

    /**
     * The ordinary job request of this body; {@link InvalidRequestException} naming the body's fields when its
     * shape cannot make one. A plan ARN becomes the name of the plan registered with it ({@code planOf}); an ARN no
     * plan of the team has stays as it is, for the ordinary checks to refuse as an unknown plan.
     */
    Mapped toJobRequest(Function<String, Optional<String>> planOf) {
        var violations = new ArrayList<Violation>();
        JobKind kind = kind(violations);
        boolean training = kind != JobKind.PROCESSING;
        String resourcesField = training ? "ResourceConfig" : "ProcessingResources.ClusterConfig";
        Resources resources = training ? resourceConfig
                : processingResources == null ? null : processingResources.clusterConfig();
        wrongKind(training, violations);
        noNullValues("Environment", environment, violations);
        noNullValues("HyperParameters", hyperParameters, violations);
        if (!violations.isEmpty()) {
            throw new InvalidRequestException(violations);
        }
        boolean listed = resources != null && resources.instancePreferences() != null;
        var planFields = new ArrayList<String>();
        List<JobRequest.Entry> entries = entries(resources, resourcesField, planOf, planFields, violations);
        if (!violations.isEmpty()) {
            throw new InvalidRequestException(violations);
        }
        var passThrough = new LinkedHashMap<String, Object>(others);
        if (training) {
            nest(passThrough, "AlgorithmSpecification", algorithmSpecification == null ? null
                    : algorithmSpecification.others());
            nest(passThrough, "OutputDataConfig", outputDataConfig == null ? null : outputDataConfig.others());
            nest(passThrough, "ResourceConfig", resources == null ? null : resources.others());
        } else {
            nest(passThrough, "AppSpecification", appSpecification == null ? null : appSpecification.others());
            var processing = new LinkedHashMap<String, Object>(processingResources == null ? Map.of()
                    : processingResources.others());
            nest(processing, "ClusterConfig", resources == null ? null : resources.others());
            nest(passThrough, "ProcessingResources", processing);
        }
        nest(passThrough, "StoppingCondition", stoppingCondition == null ? null : stoppingCondition.others());
        String image = training ? (algorithmSpecification == null ? null : algorithmSpecification.trainingImage())
                : (appSpecification == null ? null : appSpecification.imageUri());
        var request = new JobRequest(training ? trainingJobName : processingJobName, kind, null, entries,
                listed ? resources.instanceCount() : null,
                stoppingCondition == null ? null : stoppingCondition.maxPendingTimeInSeconds(),
                stoppingCondition == null ? null : stoppingCondition.maxRuntimeInSeconds(), null,
                null, null, clientToken, null,
                new ContainerSpec(image, null, environment), null,
                new SageMakerSettings(roleArn, outputDataConfig == null ? null : outputDataConfig.s3OutputPath(),
                        hyperParameters, resources == null ? null : resources.volumeSizeInGB(), null, null, null,
                        passThrough));
        JobRequest.Entry single = listed || entries.size() != 1 || entries.get(0).instanceType() == null
                || entries.get(0).trainingPlan() != null ? null : entries.get(0);
        return new Mapped(request, new Fields(training, resourcesField, listed, planFields)::of, single);
    }

    private JobKind kind(List<Violation> violations) {
        if (trainingJobName != null && processingJobName != null) {
            violations.add(new Violation("ProcessingJobName", "give TrainingJobName (a CreateTrainingJob body) or"
                    + " ProcessingJobName (a CreateProcessingJob body), not both"));
        } else if (trainingJobName == null && processingJobName == null) {
            violations.add(new Violation("TrainingJobName", "give TrainingJobName (a CreateTrainingJob body) or"
                    + " ProcessingJobName (a CreateProcessingJob body)"));
        }
        return processingJobName != null && trainingJobName == null ? JobKind.PROCESSING : JobKind.TRAINING;
    }

    /** Fields of the other call are not passed along silently: the body was probably meant as the other kind. */
    private void wrongKind(boolean training, List<Violation> violations) {
        var present = new LinkedHashMap<String, Boolean>();
        if (training) {
            present.put("AppSpecification", appSpecification != null);
            present.put("ProcessingResources", processingResources != null);
        } else {
            present.put("AlgorithmSpecification", algorithmSpecification != null);
            present.put("OutputDataConfig", outputDataConfig != null);
            present.put("ResourceConfig", resourceConfig != null);
            present.put("HyperParameters", hyperParameters != null);
        }
        present.forEach((field, there) -> {
            if (there) {
                violations.add(new Violation(field, "belongs to a " + (training ? "CreateProcessingJob"
                        : "CreateTrainingJob") + " body, not to a " + (training ? "CreateTrainingJob"
                        : "CreateProcessingJob") + " body"));
            }
        });
    }

    /** The preference list: the body's {@code InstancePreferences}, or its one {@code InstanceType}. */
    private static List<JobRequest.Entry> entries(Resources resources, String at, Function<String, Optional<String>> planOf,
                                                  List<String> planFields, List<Violation> violations) {
        if (resources == null) {
            violations.add(new Violation(at, "is required: InstanceType and InstanceCount, or InstancePreferences"));
            return List.of();
        }
        if (resources.others().containsKey("InstanceGroups")) {
            violations.add(new Violation(at + ".InstanceGroups", "Spillover places a job on one instance type;"
                    + " give InstanceType or InstancePreferences instead of a heterogeneous cluster"));
        }
        if (resources.instancePreferences() == null) {
            if (resources.instanceType() == null) {
                violations.add(new Violation(at + ".InstanceType", "give InstanceType or InstancePreferences"));
            }
            planFields.add(at + ".TrainingPlanArn");
            return List.of(new JobRequest.Entry(resources.instanceType(), resources.instanceCount(),
                    plan(resources.trainingPlanArn(), planOf), null));
        }
        if (resources.instanceType() != null) {
            violations.add(new Violation(at + ".InstanceType", "give InstanceType or InstancePreferences, not both"));
        }
        if (resources.trainingPlanArn() != null) {
            violations.add(new Violation(at + ".TrainingPlanArn", "with InstancePreferences, each entry names its"
                    + " own plan (InstancePreferences[i].TrainingPlanArns)"));
        }
        var entries = new ArrayList<JobRequest.Entry>();
        for (int i = 0; i < resources.instancePreferences().size(); i++) {
            Preference preference = resources.instancePreferences().get(i);
            String field = at + ".InstancePreferences[" + i + "]";
            if (preference == null) {
                entries.add(null);
                planFields.add(field);
                continue;
            }
            String arn = preference.trainingPlanArn();
            planFields.add(field + ".TrainingPlanArn");
            if (preference.trainingPlanArns() != null) {
                planFields.set(i, field + ".TrainingPlanArns");
                if (arn != null) {
                    violations.add(new Violation(field + ".TrainingPlanArns", "give TrainingPlanArns or"
                            + " TrainingPlanArn, not both"));
                } else if (preference.trainingPlanArns().size() > 1) {
                    violations.add(new Violation(field + ".TrainingPlanArns", "an entry takes at most one plan"));
                } else if (preference.trainingPlanArns().size() == 1) {
                    arn = preference.trainingPlanArns().get(0);
                }
            }
            entries.add(new JobRequest.Entry(preference.instanceType(), preference.instanceCount(), plan(arn, planOf),
                    null));
        }
        return entries;
    }

    private static void noNullValues(String field, Map<String, String> values, List<Violation> violations) {
        if (values != null) {
            values.forEach((key, value) -> {
                if (value == null) {
                    violations.add(new Violation(field + "[" + key + "]", "must be a string"));
                }
            });
        }
    }

    private static String plan(String arn, Function<String, Optional<String>> planOf) {
        return arn == null ? null : planOf.apply(arn).orElse(arn);
    }

    private static void nest(Map<String, Object> into, String name, Map<String, Object> fields) {
        if (fields != null && !fields.isEmpty()) {
            into.put(name, fields);
        }
    }

    /** Names a field of the ordinary request as the body names it ({@code instancePreferences[1].instanceCount}). */
    private record Fields(boolean training, String resources, boolean listed, List<String> planFields) {

        private static final Pattern ENTRY = Pattern.compile("instancePreferences(?:\\[(\\d+)])?(?:\\.(\\w+))?(.*)");

        String of(String field) {
            if (field.equals("name") || field.equals("kind")) {
                return training ? "TrainingJobName" : "ProcessingJobName";
            }
            Matcher entry = ENTRY.matcher(field);
            if (entry.matches()) {
                return entry(entry.group(1) == null ? null : Integer.valueOf(entry.group(1)), entry.group(2))
                        + entry.group(3);
            }
            for (var prefix : prefixes().entrySet()) {
                if (field.equals(prefix.getKey()) || field.startsWith(prefix.getKey() + "[")) {
                    return prefix.getValue() + field.substring(prefix.getKey().length());
                }
            }
            return field;
        }

        private Map<String, String> prefixes() {
            var prefixes = new LinkedHashMap<String, String>();
            prefixes.put("clientToken", "ClientToken");
            prefixes.put("instanceCount", resources + ".InstanceCount");
            prefixes.put("maxPendingTimeInSeconds", "StoppingCondition.MaxPendingTimeInSeconds");
            prefixes.put("maxRuntimeInSeconds", "StoppingCondition.MaxRuntimeInSeconds");
            prefixes.put("container.image", training ? "AlgorithmSpecification.TrainingImage" : "AppSpecification.ImageUri");
            prefixes.put("container.environment", "Environment");
            prefixes.put("sagemaker.roleArn", "RoleArn");
            prefixes.put("sagemaker.outputS3Uri", "OutputDataConfig.S3OutputPath");
            prefixes.put("sagemaker.hyperParameters", "HyperParameters");
            prefixes.put("sagemaker.volumeSizeInGB", resources + ".VolumeSizeInGB");
            return prefixes;
        }

        private String entry(Integer index, String part) {
            if (!listed) {
                String plan = planFields.isEmpty() ? resources + ".TrainingPlanArn" : planFields.get(0);
                return part == null ? resources + ".InstanceType" : switch (part) {
                    case "instanceCount" -> resources + ".InstanceCount";
                    case "trainingPlan" -> plan;
                    default -> resources + ".InstanceType";
                };
            }
            String at = resources + ".InstancePreferences" + (index == null ? "" : "[" + index + "]");
            if (part == null || index == null) {
                return at;
            }
            return switch (part) {
                case "instanceType" -> at + ".InstanceType";
                case "instanceCount" -> at + ".InstanceCount";
                case "trainingPlan" -> index < planFields.size() ? planFields.get(index) : at + ".TrainingPlanArns";
                default -> at;
            };
        }
    }
}
