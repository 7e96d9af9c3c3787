package io.spillover.sagemakerapi;

import io.spillover.catalog.JobKind;
import io.spillover.jobs.EstimatedStart;
import io.spillover.jobs.EvaluationView;
import io.spillover.jobs.JobStatus;
import io.spillover.jobs.JobView;
import io.spillover.jobs.StatusReason;
import io.spillover.jobs.TransitionView;
import io.spillover.placement.EntryVerdict;
import io.spillover.placement.PreferenceEntry;
import io.spillover.providers.SageMakerSettings;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Spillover's jobs in SageMaker's words: statuses and secondary statuses from the job's life, the members clients read
 * always present ({@code ResourceConfig.InstanceCount}, {@code ModelArtifacts.S3ModelArtifacts}, {@code
 * LastModifiedTime}, each transition's {@code StatusMessage}), {@code Selected*} once placed, {@code FailureReason} as
 * SageMaker words it. Times are epoch seconds, as the JSON protocol sends them.
 */
final class JobShapes {

    /** Members of a create body kept with the job that Describe does not give back. */
    private static final Set<String> NOT_DESCRIBED = Set.of("Tags", "ClientToken");
    /** Prefixes SageMaker's failure reasons carry; a provider's message that has one is kept as it is. */
    private static final List<String> REASON_PREFIXES = List.of("CapacityError", "AlgorithmError", "ClientError",
            "InternalServerError", "ResourceLimitExceeded");

    private final String region;
    private final String account;
    private final Function<String, String> planArns;

    /**
     * @param region   the region the client signed for: its ARNs name it
     * @param planArns a plan's ARN by its name (null when it has none)
     */
    JobShapes(String region, String account, Function<String, String> planArns) {
        this.region = region;
        this.account = account;
        this.planArns = planArns;
    }

    String arn(JobKind kind, String name) {
        return "arn:aws:sagemaker:" + region + ":" + account + ":" + (kind == JobKind.TRAINING ? "training-job/"
                : "processing-job/") + name;
    }

    /** DescribeTrainingJob's answer. */
    Map<String, Object> training(JobView job, Instant lastModified, EvaluationView evaluation) {
        var out = new LinkedHashMap<String, Object>();
        SageMakerSettings sagemaker = settings(job);
        Map<String, Object> pass = sagemaker.passThrough();
        out.put("TrainingJobName", job.name());
        out.put("TrainingJobArn", arn(JobKind.TRAINING, job.name()));
        out.put("ModelArtifacts", Map.of("S3ModelArtifacts", modelArtifacts(job, sagemaker)));
        out.put("TrainingJobStatus", trainingStatus(job.status()));
        out.put("SecondaryStatus", secondaryStatus(job.status(), job.statusReason()));
        put(out, "FailureReason", failureReason(job));
        if (!sagemaker.hyperParameters().isEmpty()) {
            out.put("HyperParameters", sagemaker.hyperParameters());
        }
        var algorithm = new LinkedHashMap<String, Object>();
        put(algorithm, "TrainingImage", job.container() == null ? null : job.container().image());
        algorithm.put("TrainingInputMode", "File");
        algorithm.putAll(nested(pass, "AlgorithmSpecification"));
        out.put("AlgorithmSpecification", algorithm);
        put(out, "RoleArn", sagemaker.roleArn());
        var output = new LinkedHashMap<String, Object>(nested(pass, "OutputDataConfig"));
        put(output, "S3OutputPath", sagemaker.outputS3Uri());
        if (!output.isEmpty()) {
            out.put("OutputDataConfig", output);
        }
        var resources = resources(job, nested(pass, "ResourceConfig"), true);
        put(resources, "VolumeSizeInGB", sagemaker.volumeSizeInGB());
        out.put("ResourceConfig", resources);
        out.put("StoppingCondition", stopping(job, nested(pass, "StoppingCondition"), true));
        out.put("CreationTime", seconds(job.createdAt()));
        put(out, "TrainingStartTime", seconds(job.startedAt()));
        put(out, "TrainingEndTime", seconds(job.endedAt()));
        out.put("LastModifiedTime", seconds(lastModified));
        out.put("SecondaryStatusTransitions", transitions(job, evaluation));
        if (job.container() != null && job.container().environment() != null
                && !job.container().environment().isEmpty()) {
            out.put("Environment", job.container().environment());
        }
        passThrough(pass, out, Set.of("AlgorithmSpecification", "OutputDataConfig", "ResourceConfig",
                "StoppingCondition"));
        return out;
    }

    /** DescribeProcessingJob's answer. */
    Map<String, Object> processing(JobView job, Instant lastModified) {
        var out = new LinkedHashMap<String, Object>();
        SageMakerSettings sagemaker = settings(job);
        Map<String, Object> pass = sagemaker.passThrough();
        out.put("ProcessingJobName", job.name());
        var cluster = resources(job, nested(nested(pass, "ProcessingResources"), "ClusterConfig"), false);
        cluster.put("VolumeSizeInGB", sagemaker.volumeSizeInGB() != null ? sagemaker.volumeSizeInGB()
                : cluster.getOrDefault("VolumeSizeInGB", 30));
        var processingResources = new LinkedHashMap<String, Object>(nested(pass, "ProcessingResources"));
        processingResources.put("ClusterConfig", cluster);
        out.put("ProcessingResources", processingResources);
        Map<String, Object> stopping = stopping(job, nested(pass, "StoppingCondition"), false);
        if (!stopping.isEmpty()) {
            out.put("StoppingCondition", stopping);
        }
        var app = new LinkedHashMap<String, Object>();
        app.put("ImageUri", job.container() == null || job.container().image() == null ? ""
                : job.container().image());
        app.putAll(nested(pass, "AppSpecification"));
        out.put("AppSpecification", app);
        if (job.container() != null && job.container().environment() != null
                && !job.container().environment().isEmpty()) {
            out.put("Environment", job.container().environment());
        }
        put(out, "RoleArn", sagemaker.roleArn());
        out.put("ProcessingJobArn", arn(JobKind.PROCESSING, job.name()));
        out.put("ProcessingJobStatus", processingStatus(job.status()));
        put(out, "FailureReason", failureReason(job));
        put(out, "ProcessingEndTime", seconds(job.endedAt()));
        put(out, "ProcessingStartTime", seconds(job.startedAt()));
        out.put("LastModifiedTime", seconds(lastModified));
        out.put("CreationTime", seconds(job.createdAt()));
        passThrough(pass, out, Set.of("ProcessingResources", "StoppingCondition", "AppSpecification"));
        return out;
    }

    /** One entry of ListTrainingJobs. */
    Map<String, Object> trainingSummary(JobView job, Instant lastModified) {
        var out = new LinkedHashMap<String, Object>();
        out.put("TrainingJobName", job.name());
        out.put("TrainingJobArn", arn(JobKind.TRAINING, job.name()));
        out.put("CreationTime", seconds(job.createdAt()));
        put(out, "TrainingEndTime", seconds(job.endedAt()));
        out.put("LastModifiedTime", seconds(lastModified));
        out.put("TrainingJobStatus", trainingStatus(job.status()));
        out.put("SecondaryStatus", secondaryStatus(job.status(), job.statusReason()));
        return out;
    }

    /** One entry of ListProcessingJobs. */
    Map<String, Object> processingSummary(JobView job, Instant lastModified) {
        var out = new LinkedHashMap<String, Object>();
        out.put("ProcessingJobName", job.name());
        out.put("ProcessingJobArn", arn(JobKind.PROCESSING, job.name()));
        out.put("CreationTime", seconds(job.createdAt()));
        put(out, "ProcessingEndTime", seconds(job.endedAt()));
        out.put("LastModifiedTime", seconds(lastModified));
        out.put("ProcessingJobStatus", processingStatus(job.status()));
        put(out, "FailureReason", failureReason(job));
        return out;
    }

    /** The job's tags: those its create body gave, then those added since (a key added since wins). */
    static List<Map<String, String>> tags(JobView job) {
        SageMakerSettings sagemaker = settings(job);
        var tags = new LinkedHashMap<String, String>();
        if (sagemaker.passThrough().get("Tags") instanceof List<?> given) {
            for (Object tag : given) {
                if (tag instanceof Map<?, ?> pair && pair.get("Key") instanceof String key) {
                    tags.put(key, pair.get("Value") instanceof String value ? value : "");
                }
            }
        }
        tags.putAll(new TreeMap<>(sagemaker.tags()));
        return tags.entrySet().stream().map(t -> Map.of("Key", t.getKey(), "Value", t.getValue())).toList();
    }

    static String trainingStatus(JobStatus status) {
        return switch (status) {
            case PENDING, STARTING, RUNNING -> "InProgress";
            case STOPPING -> "Stopping";
            case COMPLETED -> "Completed";
            case FAILED -> "Failed";
            case STOPPED -> "Stopped";
        };
    }

    static String processingStatus(JobStatus status) {
        return trainingStatus(status);
    }

    static String secondaryStatus(JobStatus status, StatusReason reason) {
        return switch (status) {
            case PENDING -> "Pending";
            case STARTING -> "LaunchingMLInstances";
            case RUNNING -> "Training";
            case STOPPING -> "Stopping";
            case COMPLETED -> "Completed";
            case FAILED -> "Failed";
            case STOPPED -> reason == StatusReason.MAX_RUNTIME_EXCEEDED ? "MaxRuntimeExceeded" : "Stopped";
        };
    }

    /** SageMaker's words for why a job failed, or ran out of pending time; null for every other job. */
    static String failureReason(JobView job) {
        String message = job.statusMessage() == null ? "" : job.statusMessage();
        if (job.status() == JobStatus.STOPPED && job.statusReason() == StatusReason.MAX_PENDING_TIME_EXCEEDED) {
            return "CapacityError: Unable to provision requested ML compute capacity within the job's"
                    + " MaxPendingTimeInSeconds (" + job.maxPendingTimeInSeconds() + " s): " + message;
        }
        if (job.status() != JobStatus.FAILED) {
            return null;
        }
        if (REASON_PREFIXES.stream().anyMatch(message::startsWith)) {
            return message;
        }
        String prefix = job.statusReason() == StatusReason.NONZERO_EXIT ? "AlgorithmError: "
                : job.statusReason() == StatusReason.LOST_BY_PROVIDER ? "InternalServerError: " : "ClientError: ";
        return prefix + message;
    }

    /** The job's transitions as SageMaker's secondary statuses, one run of equal statuses as one. */
    private static List<Map<String, Object>> transitions(JobView job, EvaluationView evaluation) {
        var out = new ArrayList<Map<String, Object>>();
        List<TransitionView> transitions = job.transitions() == null ? List.of() : job.transitions();
        String last = null;
        for (TransitionView t : transitions) {
            String status = secondaryStatus(t.to(), t.reason());
            if (status.equals(last)) {
                continue;
            }
            if (!out.isEmpty()) {
                out.get(out.size() - 1).put("EndTime", seconds(t.at()));
            }
            var transition = new LinkedHashMap<String, Object>();
            transition.put("Status", status);
            transition.put("StartTime", seconds(t.at()));
            transition.put("StatusMessage", t.message() == null || t.message().isBlank() ? words(status)
                    : t.message());
            out.add(transition);
            last = status;
        }
        if (job.status() == JobStatus.PENDING && !out.isEmpty()) {
            out.get(out.size() - 1).put("StatusMessage", waiting(evaluation, job.estimatedStart()));
        }
        return out;
    }

    /** Why a job waits, in one line: each entry's reason from the latest evaluation, and its estimated start. */
    static String waiting(EvaluationView evaluation, EstimatedStart estimate) {
        var message = new StringBuilder("Waiting for capacity");
        if (evaluation != null && !evaluation.entries().isEmpty()) {
            message.append(": ");
            var reasons = new ArrayList<String>();
            for (EntryVerdict entry : evaluation.entries()) {
                reasons.add("entry " + entry.index() + " (" + entry.instanceCount() + " x " + entry.instanceType()
                        + "): " + entry.reason());
            }
            message.append(String.join("; ", reasons));
        }
        if (estimate != null) {
            message.append(". Estimated start: ");
            message.append(estimate.p50() == null ? "not within the forecast" : estimate.p50() + " (likely "
                    + estimate.p10() + " to " + estimate.p90() + ")");
            if (estimate.entry() != null) {
                message.append(" on entry ").append(estimate.entry());
            }
            message.append(", ").append(estimate.basis());
        }
        return message.toString();
    }

    private static String words(String status) {
        return switch (status) {
            case "Pending" -> "Waiting for capacity";
            case "LaunchingMLInstances" -> "Launching requested ML instances";
            case "Training" -> "Training in progress";
            case "Stopping" -> "Stopping the job";
            case "Completed" -> "Training job completed";
            case "Failed" -> "Training job failed";
            default -> status;
        };
    }

    /** ResourceConfig, or ClusterConfig: the list as given, and what was selected once placed. */
    private LinkedHashMap<String, Object> resources(JobView job, Map<String, Object> given, boolean training) {
        var out = new LinkedHashMap<String, Object>(given);
        List<PreferenceEntry> entries = job.instancePreferences();
        JobView.Selection selection = job.selection();
        PreferenceEntry first = entries.get(0);
        out.put("InstanceType", selection != null ? selection.instanceType() : first.instanceType());
        out.put("InstanceCount", selection != null ? selection.instanceCount() : first.instanceCount());
        if (entries.size() > 1 || job.profile() != null) {
            var preferences = new ArrayList<Map<String, Object>>();
            for (PreferenceEntry entry : entries) {
                var preference = new LinkedHashMap<String, Object>();
                preference.put("InstanceType", entry.instanceType());
                preference.put("InstanceCount", entry.instanceCount());
                String arn = entry.trainingPlan() == null ? null : planArns.apply(entry.trainingPlan());
                if (training && arn != null) {
                    preference.put("TrainingPlanArns", List.of(arn));
                }
                preferences.add(preference);
            }
            out.put("InstancePreferences", preferences);
        } else if (training && first.trainingPlan() != null) {
            put(out, "TrainingPlanArn", planArns.apply(first.trainingPlan()));
        }
        if (selection != null) {
            out.put("SelectedInstanceType", selection.instanceType());
            out.put("SelectedInstanceCount", selection.instanceCount());
        }
        return out;
    }

    private static Map<String, Object> stopping(JobView job, Map<String, Object> given, boolean training) {
        var out = new LinkedHashMap<String, Object>(given);
        put(out, "MaxRuntimeInSeconds", job.maxRuntimeInSeconds());
        if (training) {
            out.put("MaxPendingTimeInSeconds", job.maxPendingTimeInSeconds());
        }
        return out;
    }

    /** Where a training job's model goes, as SageMaker names it; a placeholder for a job with no output path. */
    private static String modelArtifacts(JobView job, SageMakerSettings sagemaker) {
        String output = sagemaker.outputS3Uri() != null ? sagemaker.outputS3Uri()
                : "s3://spillover-" + job.team() + "/output";
        return output.replaceAll("/+$", "") + "/" + job.name() + "/output/model.tar.gz";
    }

    private static SageMakerSettings settings(JobView job) {
        return job.sagemaker() == null ? SageMakerSettings.NONE : job.sagemaker();
    }

    /** The create body's other top-level members, given back as Describe gives them back. */
    private static void passThrough(Map<String, Object> pass, Map<String, Object> out, Set<String> merged) {
        pass.forEach((name, value) -> {
            if (!merged.contains(name) && !NOT_DESCRIBED.contains(name) && !out.containsKey(name)
                    && value != null) {
                out.put(name, value);
            }
        });
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> nested(Map<String, Object> fields, String name) {
        return fields.get(name) instanceof Map<?, ?> map ? (Map<String, Object>) map : Map.of();
    }

    private static void put(Map<String, Object> out, String name, Object value) {
        if (value != null) {
            out.put(name, value);
        }
    }

    /** Epoch seconds with milliseconds, a JSON number, as AWS's JSON protocol writes timestamps. */
    static Double seconds(Instant at) {
        return at == null ? null : at.toEpochMilli() / 1000.0;
    }
}
