package io.spillover.jobs;

import io.spillover.placement.PreferenceEntry;
import jakarta.persistence.Embeddable;

/** One entry of a job's stored preference list. */
@Embeddable
class JobEntry {

    private String instanceType;
    private int instanceCount;
    private String region;
    private String trainingPlan;

    protected JobEntry() {
    }

    JobEntry(PreferenceEntry entry) {
        this.instanceType = entry.instanceType();
        this.instanceCount = entry.instanceCount();
        this.region = entry.region();
        this.trainingPlan = entry.trainingPlan();
    }

    PreferenceEntry toPreference() {
        return new PreferenceEntry(instanceType, instanceCount, region, trainingPlan);
    }
}
