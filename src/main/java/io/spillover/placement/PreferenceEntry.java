package io.spillover.placement;

import java.util.Objects;

/**
 * One acceptable way to run a job: {@code instanceCount} instances of {@code instanceType} in
 * {@code region}, taken from {@code trainingPlan} when one is named (null: on demand).
 */
public record PreferenceEntry(String instanceType, int instanceCount, String region, String trainingPlan) {

    public PreferenceEntry {
        Objects.requireNonNull(instanceType, "instanceType");
        Objects.requireNonNull(region, "region");
        if (instanceCount < 1) {
            throw new IllegalArgumentException("instanceCount must be at least 1");
        }
    }

    /** The offering this entry takes capacity from: its plan if it names one, else on demand. */
    public OfferingKey offering() {
        return trainingPlan == null
                ? OfferingKey.onDemand(region, instanceType)
                : OfferingKey.plan(region, instanceType, trainingPlan);
    }
}
