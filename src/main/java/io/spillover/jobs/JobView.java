package io.spillover.jobs;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.spillover.catalog.JobKind;
import io.spillover.placement.PreferenceEntry;
import io.spillover.placement.Requirements;
import io.spillover.providers.ContainerSpec;
import io.spillover.providers.LocalSettings;
import io.spillover.providers.SageMakerSettings;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * A job as the API shows it; {@code transitions} only when one job is described. {@code estimatedStart} only while
 * it is PENDING, once the scheduling instance has estimated it (null otherwise). {@code preemptible}: it opted in to
 * being stopped and resumed from its checkpoint; {@code preemptions}: how often it was.
 */
public record JobView(UUID id, String team, String name, JobKind kind, JobStatus status, StatusReason statusReason,
                      String statusMessage, Job.ProfileRef profile, List<PreferenceEntry> instancePreferences,
                      Integer instanceCount,
                      Selection selection, long maxPendingTimeInSeconds, Long maxRuntimeInSeconds,
                      Long expectedRuntimeSeconds, Long fallbackAfterSeconds, int priority,
                      String clientToken, Requirements requires, ContainerSpec container, LocalSettings local,
                      SageMakerSettings sagemaker,
                      int attempt, boolean preemptible, int preemptions,
                      Instant createdAt, Instant startedAt, Instant endedAt, Instant pendingDeadline,
                      EstimatedStart estimatedStart,
                      @JsonInclude(JsonInclude.Include.NON_NULL) List<TransitionView> transitions) {

    /**
     * The entry the current or last attempt runs on.
     *
     * @param borrowedInstances how many of its instances were beyond the team's guarantee when it was placed: idle
     *                          quota of other teams, to be given back when they need it (0: within the guarantee)
     */
    public record Selection(int index, String instanceType, int instanceCount, String region, String source,
                            int borrowedInstances) {

        @JsonIgnore
        public boolean borrowed() {
            return borrowedInstances > 0;
        }
    }

    static JobView of(Job job, List<TransitionView> transitions) {
        return of(job, transitions, null);
    }

    /** @param estimate the job's estimated start, shown only while it is PENDING */
    static JobView of(Job job, List<TransitionView> transitions, EstimatedStart estimate) {
        boolean pending = job.status() == JobStatus.PENDING;
        Selection selection = job.selectedIndex() == null ? null : new Selection(job.selectedIndex(),
                job.selectedType(), job.selectedCount(), job.selectedRegion(), job.selectedSource(),
                job.borrowedInstances());
        return new JobView(job.id(), job.team(), job.name(), job.kind(), job.status(), job.statusReason(),
                job.statusMessage(), job.profile(), job.preferences().entries(), job.instanceCount(), selection,
                job.maxPendingSeconds(), job.maxRuntimeSeconds(), job.spec().expectedRuntimeSeconds(),
                job.spec().fallbackAfterSeconds(), job.priority(), job.clientToken(),
                job.spec().requires(), job.spec().container(), job.spec().local(), job.spec().sagemaker(), job.attempt(),
                job.preemptible(), job.preemptions(), job.createdAt(),
                job.startedAt(),
                job.endedAt(), pending ? job.pendingDeadline() : null, pending ? estimate : null, transitions);
    }
}
