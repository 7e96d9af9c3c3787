package io.spillover.providers.sagemaker;

import io.spillover.providers.ProviderJobStatus;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import software.amazon.awssdk.services.sagemaker.model.DescribeProcessingJobResponse;
import software.amazon.awssdk.services.sagemaker.model.DescribeTrainingJobResponse;
import software.amazon.awssdk.services.sagemaker.model.SecondaryStatusTransition;

/**
 * What one Describe said of a job, in Spillover's terms.
 *
 * @param detail          SageMaker's status and secondary status ("InProgress/Training"), to tell changes apart
 * @param message         SageMaker's words: the latest status message or the failure reason
 * @param capacityRefused the job failed for capacity (FailureReason {@code CapacityError...}): not the job's fault
 * @param waitingSince    when it began waiting for capacity while starting, or null when it is not waiting
 */
record Observation(ProviderJobStatus status, String detail, String message, boolean capacityRefused,
                   Instant waitingSince, Instant lastModified) {

    /** InProgress is STARTING until the instances are up and the container is being fetched, then RUNNING. */
    static Observation of(DescribeTrainingJobResponse job) {
        String secondary = job.secondaryStatusAsString();
        String detail = job.trainingJobStatusAsString() + "/" + secondary;
        List<SecondaryStatusTransition> transitions = job.secondaryStatusTransitions();
        SecondaryStatusTransition last = transitions.isEmpty() ? null : transitions.get(transitions.size() - 1);
        String lastMessage = last == null ? null : last.statusMessage();
        String failure = job.failureReason();
        ProviderJobStatus status = switch (job.trainingJobStatusAsString()) {
            case "Completed" -> ProviderJobStatus.COMPLETED;
            case "Failed" -> ProviderJobStatus.FAILED;
            case "Stopped" -> ProviderJobStatus.STOPPED;
            case "Stopping" -> ProviderJobStatus.RUNNING;
            default -> startingPhase(secondary) ? ProviderJobStatus.STARTING : ProviderJobStatus.RUNNING;
        };
        Instant waitingSince = status == ProviderJobStatus.STARTING && waitsForCapacity(secondary, lastMessage)
                ? (last != null && last.startTime() != null ? last.startTime() : job.lastModifiedTime()) : null;
        String message = "SageMaker " + detail + (failure != null ? ": " + failure
                : lastMessage != null ? ": " + lastMessage : "");
        return new Observation(status, detail, message, status == ProviderJobStatus.FAILED && capacityError(failure),
                waitingSince, job.lastModifiedTime());
    }

    /** Processing jobs report no secondary status: InProgress is RUNNING. */
    static Observation of(DescribeProcessingJobResponse job) {
        String state = job.processingJobStatusAsString();
        ProviderJobStatus status = switch (state) {
            case "Completed" -> ProviderJobStatus.COMPLETED;
            case "Failed" -> ProviderJobStatus.FAILED;
            case "Stopped" -> ProviderJobStatus.STOPPED;
            default -> ProviderJobStatus.RUNNING;
        };
        String failure = job.failureReason();
        String said = failure != null ? failure : job.exitMessage();
        return new Observation(status, state, "SageMaker processing " + state + (said != null ? ": " + said : ""),
                status == ProviderJobStatus.FAILED && capacityError(failure), null, job.lastModifiedTime());
    }

    /** Starting, LaunchingMLInstances, PreparingTrainingStack, Pending: no container runs yet. */
    private static boolean startingPhase(String secondary) {
        return secondary == null || switch (secondary) {
            case "Starting", "LaunchingMLInstances", "PreparingTrainingStack", "Pending" -> true;
            default -> false;
        };
    }

    private static boolean waitsForCapacity(String secondary, String message) {
        return "Pending".equals(secondary) || (message != null && message.toLowerCase(Locale.ROOT).contains("capacity"));
    }

    /** SageMaker's failure reason for a job it could not find instances for starts with "CapacityError". */
    static boolean capacityError(String text) {
        if (text == null) {
            return false;
        }
        String lower = text.toLowerCase(Locale.ROOT);
        return text.startsWith("CapacityError") || lower.contains("insufficient capacity")
                || lower.contains("insufficientcapacity");
    }
}
