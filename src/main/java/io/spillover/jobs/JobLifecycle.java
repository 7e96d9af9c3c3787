package io.spillover.jobs;

import io.spillover.capacity.CapacityReleased;
import io.spillover.capacity.Offerings;
import io.spillover.capacity.PlanDirectory;
import io.spillover.placement.PendingClock;
import io.spillover.placement.PlanState;
import io.spillover.plans.PlanChanged;
import java.util.HashMap;
import java.util.Map;
import org.springframework.transaction.event.TransactionalEventListener;
import io.spillover.catalog.Catalog;
import io.spillover.placement.Decision;
import io.spillover.placement.EntryVerdict;
import io.spillover.placement.OfferingKey;
import io.spillover.providers.LaunchRequest;
import io.spillover.providers.ProviderJobChanged;
import io.spillover.providers.ProviderJobStatus;
import io.spillover.providers.Refusal;
import io.spillover.tenancy.TeamUsage;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.event.EventListener;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.orm.ObjectOptimisticLockingFailureException;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Every change of a job's status after submission, each in one transaction with the capacity it books or
 * releases and the log entry it writes: the scheduler's placements, the provider's reports, stops and limits.
 */
@Service
public class JobLifecycle {

    private static final Logger log = LoggerFactory.getLogger(JobLifecycle.class);
    static final int CONFLICT_RETRIES = 3;

    private final Jobs jobs;
    private final JobHistory history;
    private final Offerings offerings;
    private final TeamUsage teams;
    private final Catalog catalog;
    private final JdbcClient jdbc;
    private final ApplicationEventPublisher events;
    private final Clock clock;
    private final TransactionTemplate transactions;
    private final PlanDirectory plans;

    JobLifecycle(Jobs jobs, JobHistory history, Offerings offerings, TeamUsage teams, Catalog catalog,
                 JdbcClient jdbc, ApplicationEventPublisher events, Clock clock, TransactionTemplate transactions,
                 PlanDirectory plans) {
        this.plans = plans;
        this.jobs = jobs;
        this.history = history;
        this.offerings = offerings;
        this.teams = teams;
        this.catalog = catalog;
        this.jdbc = jdbc;
        this.events = events;
        this.clock = clock;
        this.transactions = transactions;
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
        var entry = job.preferences().get(selected.index());
        long offeringId = offerings.book(entry.offering(), entry.instanceCount());
        teams.book(job.team(), entry.instanceType(), entry.instanceCount(), accelerators(entry.instanceType(),
                entry.instanceCount()));
        history.record(jobId, job.team(), decision, trigger, now);
        history.append(job.start(selected, offeringId, now), job.name());
        LaunchRequest request = launchRequest(job);
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

    /** One job's evaluation in a cycle, and what woke the cycle for it. */
    public record Evaluated(UUID jobId, String team, Decision decision, String trigger) {
    }

    /** The provider refused the launch for capacity: mark the offering, give back capacity, queue again. */
    public void launchRefused(UUID jobId, int attempt, String message, Refusal refusal, Duration unavailableFor) {
        inTransaction(() -> {
            Job job = jobs.findById(jobId).orElseThrow();
            if (job.attempt() == attempt) {
                requeueAfterRefusal(job, "launch refused on ", message, refusal, unavailableFor);
            }
        });
    }

    /**
     * The provider took the attempt but then could not run it for capacity: handled as a refused launch, so
     * the job falls through to its next entry as a new attempt. Reports on an old attempt are ignored.
     */
    public void refusedByProvider(String providerJobName, String message, Refusal refusal, Duration unavailableFor) {
        inTransaction(() -> jobs.findByProviderJobName(providerJobName).ifPresent(job ->
                requeueAfterRefusal(job, "capacity refused after launch on ", message, refusal, unavailableFor)));
    }

    private void requeueAfterRefusal(Job job, String what, String message, Refusal refusal, Duration unavailableFor) {
        // Only an attempt still starting: one running or being stopped ends through the provider's reports.
        if (job.status() != JobStatus.STARTING) {
            return;
        }
        Instant now = clock.instant();
        offerings.markUnavailable(job.offeringId(), now.plus(unavailableFor), refusal.cause());
        // The requeue event wakes this job and its team at once; a separate release event could be taken by
        // a cycle of its own first and record the wrong trigger.
        OfferingKey key = releaseHeld(job, false);
        history.append(job.requeue(what + key.describe() + ": " + message, now), job.name());
        events.publishEvent(new RequeuedAfterRefusal(job.id(), job.team()));
    }

    /** The provider refused the launch for good: the job fails with its message. */
    public void launchFailed(UUID jobId, int attempt, String message) {
        inTransaction(() -> {
            Job job = jobs.findById(jobId).orElseThrow();
            if (job.attempt() != attempt || job.status().ended()) {
                return;
            }
            releaseHeld(job, true);
            history.append(job.end(JobStatus.FAILED, StatusReason.PROVIDER_ERROR, message, clock.instant()),
                    job.name());
        });
    }

    /** Follows what the provider reports of the current attempt; reports of old attempts are ignored. */
    @EventListener
    public void providerChanged(ProviderJobChanged change) {
        inTransaction(() -> {
            Optional<Job> found = jobs.findByProviderJobName(change.providerJobName());
            if (found.isEmpty()) {
                log.debug("Ignoring report on {}: no current attempt of that name", change.providerJobName());
                return;
            }
            Job job = found.get();
            Instant now = clock.instant();
            ProviderJobStatus status = change.status();
            if (job.status().ended() || status == ProviderJobStatus.STARTING) {
                return;
            }
            if (status == ProviderJobStatus.RUNNING) {
                if (job.status() == JobStatus.STARTING) {
                    history.append(job.running(now, change.message()), job.name());
                }
                return;
            }
            releaseHeld(job, true);
            Transition end = switch (status) {
                case COMPLETED -> job.end(JobStatus.COMPLETED, StatusReason.COMPLETED, change.message(), now);
                case FAILED -> job.end(JobStatus.FAILED, StatusReason.NONZERO_EXIT, change.message(), now);
                // A stop Spillover asked for keeps its reason (Job.end); any other was the provider's own.
                default -> job.end(JobStatus.STOPPED, StatusReason.STOPPED_BY_PROVIDER, change.message(), now);
            };
            history.append(end, job.name());
        });
    }

    /** Stops a job: a pending one at once, one on the provider by asking the provider. */
    public void stop(UUID jobId, StatusReason reason, String message) {
        inTransaction(() -> {
            Job job = jobs.findById(jobId).orElseThrow();
            Instant now = clock.instant();
            if (job.status() == JobStatus.PENDING) {
                history.append(job.end(JobStatus.STOPPED, reason, message, now), job.name());
                events.publishEvent(new JobLeftQueue(jobId, job.team()));
            } else if (job.status() == JobStatus.STARTING || job.status() == JobStatus.RUNNING) {
                history.append(job.stopping(reason, message, now), job.name());
                events.publishEvent(new StopRequested(job.providerJobName()));
            }
        });
    }

    /** The provider lost an attempt it had accepted (it restarted, say): the job fails and frees its capacity. */
    public void lostByProvider(UUID jobId, int attempt) {
        inTransaction(() -> {
            Job job = jobs.findById(jobId).orElseThrow();
            if (job.attempt() != attempt || job.status().ended()) {
                return;
            }
            releaseHeld(job, true);
            history.append(job.end(JobStatus.FAILED, StatusReason.LOST_BY_PROVIDER,
                    "the provider no longer knows attempt " + attempt, clock.instant()), job.name());
        });
    }

    /**
     * A plan's window moved: pending jobs waiting only for scheduled plans get their clock started anew
     * from the plans' new start (SPEC §3.4.3).
     */
    @TransactionalEventListener(fallbackExecution = true)
    public void planChanged(PlanChanged change) {
        if (!change.edited()) {
            return;
        }
        Map<String, PlanState> states = new HashMap<>();
        plans.plans().forEach(plan -> states.put(plan.name(), plan));
        List<UUID> waiting = jdbc.sql("SELECT DISTINCT j.id FROM jobs j JOIN job_entries e ON e.job_id = j.id"
                        + " WHERE j.status = 'PENDING' AND e.training_plan = ?")
                .param(change.plan()).query(UUID.class).list();
        for (UUID id : waiting) {
            inTransaction(() -> jobs.findById(id).ifPresent(job -> job.restartPendingClock(
                    PendingClock.startsAt(job.preferences(), states, job.createdAt()))));
        }
    }

    /** Pending jobs whose maximum pending time ran out by {@code now}. */
    public List<UUID> pendingPastDeadline(Instant now) {
        return jdbc.sql("SELECT id FROM jobs WHERE status = 'PENDING' AND pending_deadline <= ? ORDER BY pending_deadline")
                .param(Timestamp.from(now)).query(UUID.class).list();
    }

    /** Jobs starting or running on capacity of a source ({@code plan:<name>}). */
    public List<UUID> onSource(String source) {
        return jdbc.sql("SELECT id FROM jobs WHERE status IN ('STARTING', 'RUNNING') AND selected_source = ?")
                .param(source).query(UUID.class).list();
    }

    /** Jobs on the provider past their maximum run time by {@code now}. */
    public List<UUID> runningPastLimit(Instant now) {
        return jdbc.sql("SELECT id FROM jobs WHERE status IN ('STARTING', 'RUNNING') AND runtime_deadline <= ?")
                .param(Timestamp.from(now)).query(UUID.class).list();
    }

    /** The next moment a pending deadline or a run-time limit falls due. */
    public Optional<Instant> nextDeadline() {
        return jdbc.sql("""
                        SELECT least((SELECT min(pending_deadline) FROM jobs WHERE status = 'PENDING'),
                                     (SELECT min(runtime_deadline) FROM jobs WHERE status IN ('STARTING', 'RUNNING')))""")
                .query(Timestamp.class).optional().map(Timestamp::toInstant);
    }

    /** Jobs on the provider, for reconciling with it when a scheduler takes over. */
    public List<LiveAttempt> liveAttempts() {
        return jdbc.sql("SELECT id, attempt, status, provider_job_name FROM jobs"
                        + " WHERE status IN ('STARTING', 'RUNNING', 'STOPPING')")
                .query((rs, n) -> new LiveAttempt(rs.getObject("id", UUID.class), rs.getInt("attempt"),
                        JobStatus.valueOf(rs.getString("status")), rs.getString("provider_job_name")))
                .list();
    }

    public record LiveAttempt(UUID jobId, int attempt, JobStatus status, String providerJobName) {
    }

    /**
     * Whether an attempt the provider has just made should run: it is still the job's attempt, and the job
     * has neither ended nor been asked to stop meanwhile (through another instance, say).
     */
    @Transactional(readOnly = true)
    public boolean wantsRunning(UUID jobId, int attempt) {
        return jobs.findById(jobId).filter(job -> job.attempt() == attempt)
                .map(job -> job.status() == JobStatus.STARTING || job.status() == JobStatus.RUNNING)
                .orElse(false);
    }

    /** The launch of a STARTING job's current attempt, to launch again (idempotently) after a lost answer. */
    @Transactional(readOnly = true)
    public Optional<LaunchReady> currentLaunch(UUID jobId) {
        return jobs.findById(jobId).filter(job -> job.status() == JobStatus.STARTING)
                .map(job -> new LaunchReady(jobId, job.attempt(), launchRequest(job)));
    }

    private LaunchRequest launchRequest(Job job) {
        var entry = job.preferences().get(job.selectedIndex());
        String planArn = entry.trainingPlan() == null ? null : plans.arn(entry.trainingPlan()).orElse(null);
        return new LaunchRequest(job.providerJobName(), job.team(), job.name(), job.kind(), entry.instanceType(),
                entry.instanceCount(), entry.region(), entry.trainingPlan(), planArn, job.spec().container(),
                job.spec().local(), job.spec().sagemaker(), job.maxRuntimeSeconds());
    }

    /**
     * Runs a change in its own transaction, again when a concurrent change of the same job won (the
     * scheduler placing it while a user stops it, say): each try reads the job afresh. A refused counter
     * is the same race seen first from the capacity side: two reports of one end (the provider's watch and
     * the reconciling sweep, or two instances) both read the job holding capacity, and the loser's release
     * would take a use counter below zero.
     */
    private void inTransaction(Runnable change) {
        for (int attempt = 1; ; attempt++) {
            try {
                transactions.executeWithoutResult(status -> change.run());
                return;
            } catch (ObjectOptimisticLockingFailureException | DataIntegrityViolationException e) {
                if (attempt == CONFLICT_RETRIES) {
                    throw e;
                }
                log.debug("Job changed concurrently; trying again", e);
            }
        }
    }

    private OfferingKey releaseHeld(Job job, boolean announce) {
        var entry = job.preferences().get(job.selectedIndex());
        Long offeringId = job.offeringId();
        if (job.releaseCapacity()) {
            offerings.release(offeringId, entry.instanceCount());
            teams.release(job.team(), entry.instanceType(), entry.instanceCount(),
                    accelerators(entry.instanceType(), entry.instanceCount()));
            if (announce) {
                events.publishEvent(new CapacityReleased(entry.offering(), job.team()));
            }
        }
        return entry.offering();
    }

    private int accelerators(String instanceType, int count) {
        return catalog.get(instanceType).acceleratorCount() * count;
    }
}
