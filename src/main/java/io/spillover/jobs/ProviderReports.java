package io.spillover.jobs;

import io.spillover.placement.OfferingKey;
import io.spillover.providers.ProviderJobChanged;
import io.spillover.providers.ProviderJobStatus;
import java.time.Instant;
import java.util.UUID;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Service;

/** What the provider reports of a job's current attempt, followed into the job's status; old attempts are ignored. */
@Service
public class ProviderReports {

    private final JobChanges changes;
    private final JobCapacity capacity;
    private final JobLimits limits;
    private final ApplicationEventPublisher events;

    ProviderReports(JobChanges changes, JobCapacity capacity, JobLimits limits, ApplicationEventPublisher events) {
        this.changes = changes;
        this.capacity = capacity;
        this.limits = limits;
        this.events = events;
    }

    @EventListener
    public void providerChanged(ProviderJobChanged change) {
        changes.changeAttempt(change.providerJobName(), (job, now) -> {
            ProviderJobStatus status = change.status();
            if (job.status().ended() || status == ProviderJobStatus.STARTING) {
                return null;
            }
            if (status == ProviderJobStatus.RUNNING) {
                return job.status() == JobStatus.STARTING ? job.running(now, change.message()) : null;
            }
            if (status == ProviderJobStatus.STOPPED && job.beingPreempted()) {
                return requeuePreempted(job, "stopped (" + change.message() + ")", now);
            }
            capacity.release(job, true);
            return switch (status) {
                case COMPLETED -> job.end(JobStatus.COMPLETED, StatusReason.COMPLETED, change.message(), now);
                case FAILED -> job.end(JobStatus.FAILED, StatusReason.NONZERO_EXIT, change.message(), now);
                // A stop Spillover asked for keeps its reason (Job.end); any other was the provider's own.
                default -> job.end(JobStatus.STOPPED, StatusReason.STOPPED_BY_PROVIDER, change.message(), now);
            };
        });
    }

    /**
     * The provider no longer knows an attempt it had accepted: the instance that ran a local job died, say.
     * The job is placed again as a new attempt, as Slurm requeues a job whose node died, up to
     * {@code spillover.jobs.lost-attempt-retries} times; then it fails. One being stopped just ends stopped.
     */
    public void lostByProvider(UUID jobId, int attempt) {
        changes.change(jobId, (job, now) -> {
            if (job.attempt() != attempt || job.status().ended()) {
                return null;
            }
            String lost = "attempt " + attempt + " was lost: the provider no longer knows it";
            if (job.beingPreempted()) {
                return requeuePreempted(job, lost, now);
            }
            if (job.status() == JobStatus.STOPPING) {
                capacity.release(job, true);
                return job.end(JobStatus.STOPPED, StatusReason.STOPPED_BY_USER, lost, now);
            }
            if (job.lostAttempts() >= limits.lostAttemptRetries()) {
                capacity.release(job, true);
                return job.end(JobStatus.FAILED, StatusReason.LOST_BY_PROVIDER, lost + " (" + job.lostAttempts()
                        + " lost before it: spillover.jobs.lost-attempt-retries is " + limits.lostAttemptRetries()
                        + ")", now);
            }
            // As after a refused launch, one event wakes the job, the offering's other jobs and its team.
            OfferingKey offering = capacity.release(job, false);
            Transition requeued = job.requeueLost(lost + "; placed again as a new attempt (retry "
                    + (job.lostAttempts() + 1) + " of " + limits.lostAttemptRetries() + ")", now);
            events.publishEvent(new RequeuedAfterLoss(job.id(), job.team(), offering));
            return requeued;
        });
    }

    /**
     * A preempted attempt has ended: its instances go back (to the team that reclaimed them: the scheduler's next
     * cycle, woken by one event for the job, the offering and its team, places the reclaiming job first), and the job
     * waits again at its queue position (before its team's other jobs of its priority when it gave way to a teammate),
     * to resume from its checkpoint as a new attempt.
     */
    private Transition requeuePreempted(Job job, String how, Instant now) {
        OfferingKey offering = capacity.release(job, false);
        Transition requeued = job.requeuePreempted("preempted: attempt " + job.attempt() + " " + how
                + (job.gaveWay() ? "; it gave way to a shorter job of its team and waits again before the team's other"
                + " jobs of its priority" : "; waiting again at its queue position")
                + ", to resume from its checkpoint (preemption " + (job.preemptions() + 1) + ")", now);
        events.publishEvent(new RequeuedAfterPreemption(job.id(), job.team(), offering));
        return requeued;
    }
}
