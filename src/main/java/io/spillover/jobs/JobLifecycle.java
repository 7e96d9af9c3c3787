package io.spillover.jobs;

import io.spillover.placement.Decision;
import io.spillover.placement.EntryVerdict;
import io.spillover.providers.LaunchRequest;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * The changes of a job's status that a scheduling cycle applies, each in one transaction with the capacity it
 * books or releases and the log entry it writes: placements, and stops (by a user or for a limit). What the
 * launcher and the provider report goes through {@link Launches} and {@link ProviderReports}.
 */
@Service
public class JobLifecycle {

    private final Jobs jobs;
    private final JobHistory history;
    private final JobCapacity capacity;
    private final Launches launches;
    private final JobChanges changes;
    private final SchedulerQueries queries;
    private final ApplicationEventPublisher events;

    JobLifecycle(Jobs jobs, JobHistory history, JobCapacity capacity, Launches launches, JobChanges changes,
                 SchedulerQueries queries, ApplicationEventPublisher events) {
        this.jobs = jobs;
        this.history = history;
        this.capacity = capacity;
        this.launches = launches;
        this.changes = changes;
        this.queries = queries;
        this.events = events;
    }

    /**
     * Commits a selection: the job becomes STARTING and its capacity is booked, with the evaluation logged,
     * all in one transaction. Empty when the job is no longer pending. The database refuses overbooking with
     * {@link io.spillover.tenancy.CapacityRefusedException}, rolling everything back.
     */
    @Transactional
    public Optional<LaunchRequest> start(UUID jobId, Decision decision, String trigger, Instant now) {
        Job job = jobs.findById(jobId).orElse(null);
        if (job == null || job.status() != JobStatus.PENDING) {
            return Optional.empty();
        }
        EntryVerdict selected = decision.selected().orElseThrow();
        JobCapacity.Booking booking = capacity.book(job, job.preferences().get(selected.index()));
        history.record(jobId, job.team(), decision, trigger, now);
        history.append(job.start(selected, booking.offeringId(), booking.borrowed(), now), job);
        LaunchRequest request = launches.request(job);
        events.publishEvent(new LaunchReady(jobId, job.attempt(), request));
        // Replicas' clocks may differ by a little: a job taken by another instance must not wait a negative time.
        Duration waited = Duration.between(job.createdAt(), now);
        events.publishEvent(new JobPlaced(job.team(), selected.index(), selected.source(),
                waited.isNegative() ? Duration.ZERO : waited));
        return Optional.of(request);
    }

    /** Logs evaluations that placed nothing (counted only when unchanged). */
    @Transactional
    public void recordWaiting(List<Evaluated> waiting, Instant now) {
        history.recordAll(waiting, now);
    }

    /**
     * One job's evaluation in a cycle, and what woke the cycle for it.
     *
     * @param firstLook whether the job had no evaluation before this one (then it cannot repeat one, and is not looked
     *                  up as a repeat); false when not known
     */
    public record Evaluated(UUID jobId, String team, Decision decision, String trigger, boolean firstLook) {
    }

    /** Stops a job: a pending one at once, one on the provider by asking the provider. */
    public void stop(UUID jobId, StatusReason reason, String message) {
        changes.change(jobId, (job, now) -> {
            if (job.status() == JobStatus.PENDING) {
                Transition stopped = job.end(JobStatus.STOPPED, reason, message, now);
                events.publishEvent(new JobLeftQueue(jobId, job.team()));
                return stopped;
            }
            if (JobStatus.MEANT_TO_RUN.contains(job.status())) {
                Transition stopping = job.stopping(reason, message, now);
                events.publishEvent(new StopRequested(job.providerJobName()));
                return stopping;
            }
            if (job.beingPreempted()) {
                // its provider is stopping it already; it will end instead of waiting again
                return job.stopInsteadOfRequeue(reason, message + " while it was being preempted", now);
            }
            return null;
        });
    }

    /**
     * Preempts a job: asks its provider to stop it, with {@code grace} between the signal to end and the kill; once
     * the provider confirms the stop the job waits again at its queue position ({@link ProviderReports}), and, when
     * it gave way to a shorter job of its own team ({@code forTeammate}), before its team's other jobs of its
     * priority. Nothing when it is no longer starting or running. Only a job that opted in is ever preempted.
     */
    public void preempt(UUID jobId, String message, boolean forTeammate, Duration grace) {
        changes.change(jobId, (job, now) -> {
            if (!JobStatus.MEANT_TO_RUN.contains(job.status())) {
                return null;
            }
            Transition preempting = job.preempting(message, forTeammate, now);
            events.publishEvent(new StopRequested(job.providerJobName(), grace));
            return preempting;
        });
    }

    // The scheduling cycle finds the jobs it stops for a limit here; SchedulerQueries answers.

    public List<UUID> pendingPastDeadline(Instant now) {
        return queries.pendingPastDeadline(now);
    }

    public List<UUID> runningPastLimit(Instant now) {
        return queries.runningPastLimit(now);
    }

    public List<UUID> onSource(String source) {
        return queries.onSource(source);
    }
}
