package io.spillover.jobs;

import io.spillover.placement.PendingClock;
import io.spillover.shared.InvalidRequestException;
import io.spillover.system.Access;
import io.spillover.system.Change;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

/** Takes a team's job requests: checks them against every rule and stores them as PENDING for the scheduler. */
@Service
public class JobSubmissions {

    private final Jobs jobs;
    private final JobHistory history;
    private final SubmissionChecks checks;
    private final TransactionTemplate transactions;
    private final ApplicationEventPublisher events;
    private final Clock clock;

    JobSubmissions(Jobs jobs, JobHistory history, SubmissionChecks checks, TransactionTemplate transactions,
                   ApplicationEventPublisher events, Clock clock) {
        this.jobs = jobs;
        this.history = history;
        this.checks = checks;
        this.transactions = transactions;
        this.events = events;
        this.clock = clock;
    }

    /** The outcome of a submission: the job, and whether this call created it or found it by client token. */
    public record Submitted(JobView job, boolean created) {
    }

    /**
     * Checks the request against every rule and stores it as PENDING; the scheduler places it. A retried
     * submission with the same client token answers the job it made the first time.
     */
    @Change(level = Access.Level.MEMBER, action = "submit job", target = "teams/{team}/jobs")
    public Submitted submit(String team, JobRequest request) {
        Optional<Submitted> replay = replayOf(team, request);
        if (replay.isPresent()) {
            return replay.get();
        }
        SubmissionChecks.Checked checked = checks.check(team, request);
        String name = request.name() != null ? request.name()
                : request.kind().name().toLowerCase() + "-" + UUID.randomUUID().toString().substring(0, 8);
        try {
            return transactions.execute(tx -> replayOf(team, request).orElseGet(() -> {
                if (jobs.existsByTeamAndName(team, name)) {
                    // Read committed: a retry with this token may have committed since the look-up above.
                    return replayOf(team, request).orElseThrow(() -> nameTaken(team, name));
                }
                Instant now = clock.instant();
                Job job = Job.submit(UUID.randomUUID(), team, name, request.kind(), checked.preferences(),
                        checked.instanceCount(), checked.maxPending(),
                        PendingClock.startsAt(checked.preferences(), checked.plans(), now),
                        request.maxRuntimeInSeconds(), request.priority() == null ? 0 : request.priority(),
                        request.clientToken(), new JobSpec(request.container(), request.local(), request.sagemaker(),
                                checked.requires(), checked.fallbackAfterSeconds()),
                        checked.profile(), now);
                jobs.saveAndFlush(job);
                history.append(job.submitted(), job.name());
                events.publishEvent(new JobSubmitted(job.id(), team));
                return new Submitted(JobView.of(job, history.transitions(job.id())), true);
            }));
        } catch (DataIntegrityViolationException e) {
            // A concurrent submission with the same client token or name committed first.
            return replayOf(team, request).orElseThrow(() -> nameTaken(team, name));
        }
    }

    private static InvalidRequestException nameTaken(String team, String name) {
        return new InvalidRequestException("name", "team " + team + " already has a job named " + name);
    }

    /** The job an earlier submission with the same client token made, if any. */
    private Optional<Submitted> replayOf(String team, JobRequest request) {
        if (request == null || request.clientToken() == null) {
            return Optional.empty();
        }
        return jobs.findByTeamAndClientToken(team, request.clientToken())
                .map(job -> new Submitted(JobView.of(job, history.transitions(job.id())), false));
    }
}
