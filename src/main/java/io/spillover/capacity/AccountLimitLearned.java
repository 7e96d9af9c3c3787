package io.spillover.capacity;

import io.spillover.catalog.JobKind;

/**
 * A provider refused a launch naming the account's limit of a type for a job kind (SageMaker's
 * ResourceLimitExceeded: "The account-level service limit 'ml.p5.48xlarge for training job usage' is 2
 * Instances..."). The offering takes it until the next reading of the account's quotas, unless it is declared.
 */
public record AccountLimitLearned(String region, String instanceType, JobKind kind, int limit) {
}
