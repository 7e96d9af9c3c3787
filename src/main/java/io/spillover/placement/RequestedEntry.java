package io.spillover.placement;

/** An entry as a user wrote it: any field may be missing or wrong until {@link SubmissionRules} checks it. */
public record RequestedEntry(String instanceType, Integer instanceCount, String trainingPlan, String region) {
}
