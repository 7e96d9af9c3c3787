package io.spillover.jobs;

import io.spillover.capacity.PlanDirectory;
import io.spillover.placement.OfferingKey;
import io.spillover.providers.LaunchRequest;
import io.spillover.providers.Refusal;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** A job's attempts as the launcher sees them: what to launch, whether it should still run, and how it went. */
@Service
public class Launches {

    private final Jobs jobs;
    private final PlanDirectory plans;
    private final JobChanges changes;
    private final JobCapacity capacity;
    private final ApplicationEventPublisher events;

    Launches(Jobs jobs, PlanDirectory plans, JobChanges changes, JobCapacity capacity,
             ApplicationEventPublisher events) {
        this.jobs = jobs;
        this.plans = plans;
        this.changes = changes;
        this.capacity = capacity;
        this.events = events;
    }

    /**
     * Whether an attempt the provider has just made should run: it is still the job's attempt, and the job
     * has neither ended nor been asked to stop meanwhile (through another instance, say).
     */
    @Transactional(readOnly = true)
    public boolean wantsRunning(UUID jobId, int attempt) {
        return jobs.findById(jobId).filter(job -> job.attempt() == attempt)
                .map(job -> JobStatus.MEANT_TO_RUN.contains(job.status()))
                .orElse(false);
    }

    /** The launch of a STARTING job's current attempt, to launch again (idempotently) after a lost answer. */
    @Transactional(readOnly = true)
    public Optional<LaunchReady> currentLaunch(UUID jobId) {
        return jobs.findById(jobId).filter(job -> job.status() == JobStatus.STARTING)
                .map(job -> new LaunchReady(jobId, job.attempt(), request(job)));
    }

    /** The provider refused the launch for capacity: mark the offering, give back capacity, queue again. */
    public void launchRefused(UUID jobId, int attempt, String message, Refusal refusal, Duration unavailableFor) {
        changes.change(jobId, (job, now) -> job.attempt() == attempt
                ? requeueAfterRefusal(job, "launch refused on ", message, refusal, now, unavailableFor)
                : null);
    }

    /**
     * The provider took the attempt but then could not run it for capacity: handled as a refused launch, so
     * the job falls through to its next entry as a new attempt. Reports on an old attempt are ignored.
     */
    public void refusedByProvider(String providerJobName, String message, Refusal refusal, Duration unavailableFor) {
        changes.changeAttempt(providerJobName, (job, now) -> requeueAfterRefusal(job,
                "capacity refused after launch on ", message, refusal, now, unavailableFor));
    }

    private Transition requeueAfterRefusal(Job job, String what, String message, Refusal refusal, Instant now,
                                           Duration unavailableFor) {
        // Only an attempt still starting: one running or being stopped ends through the provider's reports.
        if (job.status() != JobStatus.STARTING) {
            return null;
        }
        capacity.markUnavailable(job, now.plus(unavailableFor), refusal.cause());
        // The requeue event wakes this job and its team at once; a separate release event could be taken by
        // a cycle of its own first and record the wrong trigger.
        OfferingKey key = capacity.release(job, false);
        Transition requeued = job.requeue(what + key.describe() + ": " + message, now);
        events.publishEvent(new RequeuedAfterRefusal(job.id(), job.team()));
        return requeued;
    }

    /** The provider refused the launch for good: the job fails with its message. */
    public void launchFailed(UUID jobId, int attempt, String message) {
        changes.change(jobId, (job, now) -> {
            if (job.attempt() != attempt || job.status().ended()) {
                return null;
            }
            capacity.release(job, true);
            return job.end(JobStatus.FAILED, StatusReason.PROVIDER_ERROR, message, now);
        });
    }

    LaunchRequest request(Job job) {
        var entry = job.preferences().get(job.selectedIndex());
        String planArn = entry.trainingPlan() == null ? null : plans.arn(entry.trainingPlan()).orElse(null);
        return new LaunchRequest(job.providerJobName(), job.id(), job.team(), job.name(), job.kind(), entry.instanceType(),
                entry.instanceCount(), entry.region(), entry.trainingPlan(), planArn, job.spec().container(),
                job.spec().local(), job.spec().sagemaker(), job.maxRuntimeSeconds(), job.preemptible());
    }
}
