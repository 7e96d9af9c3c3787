package io.spillover.capacity;

import java.util.Objects;

/**
 * What the provider's account allows of an instance type in a region: its applied service quota per job kind
 * (null when the account lists none for the kind) and the instances its jobs outside Spillover hold now.
 */
public record AccountLimit(String region, String instanceType, Integer trainingQuota, Integer processingQuota,
                           int outsideUse) {

    public AccountLimit {
        Objects.requireNonNull(region, "region");
        Objects.requireNonNull(instanceType, "instanceType");
        if (outsideUse < 0) {
            throw new IllegalArgumentException("outside use cannot be negative");
        }
    }

    /**
     * The offering's total: one offering serves both kinds, so it is the larger quota, less outside use. A job's
     * count is held to its own kind's quota at submission, and SageMaker refuses a launch past it.
     */
    public int total() {
        int quota = Math.max(trainingQuota == null ? 0 : trainingQuota, processingQuota == null ? 0 : processingQuota);
        return Math.max(0, quota - outsideUse);
    }
}
