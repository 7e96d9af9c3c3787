package io.spillover.jobs;

import io.spillover.placement.PreferenceEntry;
import jakarta.persistence.Column;
import jakarta.persistence.Embeddable;
import java.time.Instant;

/**
 * One entry of a job's stored preference list. It carries its job's team and queue position, which never change,
 * so that the scheduler reads each offering's waiting jobs in queue order from one index (V14, {@link PendingJobs}).
 */
@Embeddable
class JobEntry {

    private String instanceType;
    private int instanceCount;
    private String region;
    private String trainingPlan;
    @Column(updatable = false)
    private String team;
    @Column(updatable = false)
    private int priority;
    @Column(updatable = false)
    private Instant createdAt;

    protected JobEntry() {
    }

    JobEntry(PreferenceEntry entry, String team, int priority, Instant createdAt) {
        this.instanceType = entry.instanceType();
        this.instanceCount = entry.instanceCount();
        this.region = entry.region();
        this.trainingPlan = entry.trainingPlan();
        this.team = team;
        this.priority = priority;
        this.createdAt = createdAt;
    }

    PreferenceEntry toPreference() {
        return new PreferenceEntry(instanceType, instanceCount, region, trainingPlan);
    }
}
