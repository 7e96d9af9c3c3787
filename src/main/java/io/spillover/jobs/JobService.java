package io.spillover.jobs;

import io.spillover.capacity.CapacityService;
import io.spillover.placement.Decision;
import io.spillover.placement.PendingClock;
import io.spillover.placement.Placement;
import io.spillover.placement.PlacementRequest;
import io.spillover.placement.PlanState;
import io.spillover.placement.PreferenceList;
import io.spillover.placement.RequestedEntry;
import io.spillover.placement.Requirements;
import io.spillover.placement.Submission;
import io.spillover.placement.SubmissionRules;
import io.spillover.placement.TeamState;
import io.spillover.plans.PlanService;
import io.spillover.profiles.ProfileDefinition;
import io.spillover.profiles.ProfileService;
import io.spillover.profiles.ProfileView;
import io.spillover.providers.CapacityProvider;
import io.spillover.shared.ConflictException;
import io.spillover.shared.InvalidRequestException;
import io.spillover.shared.NotFoundException;
import io.spillover.shared.Violation;
import io.spillover.system.Validation;
import io.spillover.tenancy.TeamService;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.PageRequest;
import org.springframework.data.domain.Sort;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionTemplate;

/** Submission, reading and stopping of a team's jobs, and the explain dry run. */
@Service
public class JobService {

    static final int MAX_PAGE_SIZE = 200;

    private final Jobs jobs;
    private final JobHistory history;
    private final JobLifecycle lifecycle;
    private final TeamService teams;
    private final CapacityService capacity;
    private final CapacityProvider provider;
    private final SubmissionRules rules;
    private final Placement placement;
    private final Validation validation;
    private final JobLimits limits;
    private final ProfileService profiles;
    private final PlanService plans;
    private final TransactionTemplate transactions;
    private final ApplicationEventPublisher events;
    private final Clock clock;

    JobService(Jobs jobs, JobHistory history, JobLifecycle lifecycle, TeamService teams, CapacityService capacity,
               CapacityProvider provider, SubmissionRules rules, Placement placement, Validation validation,
               JobLimits limits, ProfileService profiles, PlanService plans,
               TransactionTemplate transactions, ApplicationEventPublisher events, Clock clock) {
        this.jobs = jobs;
        this.history = history;
        this.lifecycle = lifecycle;
        this.teams = teams;
        this.capacity = capacity;
        this.provider = provider;
        this.rules = rules;
        this.placement = placement;
        this.validation = validation;
        this.limits = limits;
        this.profiles = profiles;
        this.plans = plans;
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
    public Submitted submit(String team, JobRequest request) {
        TeamState state = teams.state(team);
        Optional<Submitted> replay = replayOf(team, request);
        if (replay.isPresent()) {
            return replay.get();
        }
        Checked checked = check(team, request, state);
        String name = request.name() != null ? request.name()
                : request.kind().name().toLowerCase() + "-" + UUID.randomUUID().toString().substring(0, 8);
        try {
            Submitted submitted = transactions.execute(tx -> replayOf(team, request).orElseGet(() -> {
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
                                checked.requires()),
                        checked.profile(), now);
                jobs.saveAndFlush(job);
                history.append(job.submitted(), job.name());
                events.publishEvent(new JobSubmitted(job.id(), team));
                return new Submitted(JobView.of(job, history.transitions(job.id())), true);
            }));
            return submitted;
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

    /** Where the job would be placed now, and why not elsewhere; nothing is stored. */
    @Transactional(readOnly = true)
    public ExplainView explain(String team, JobRequest request) {
        TeamState state = teams.state(team);
        Checked checked = check(team, request, state);
        Instant now = clock.instant();
        Decision decision = placement.decide(new PlacementRequest(team, request.kind(), checked.preferences()),
                capacity.snapshot(), now);
        return new ExplainView(now, decision.outcome(),
                decision.selected().map(v -> v.index()).orElse(null), decision.entries());
    }

    /** A request that passed every rule, with what its profile filled in. */
    private record Checked(PreferenceList preferences, Integer instanceCount, Duration maxPending,
                           Requirements requires, Job.ProfileRef profile, Map<String, PlanState> plans) {
    }

    /**
     * Every rule at once: the body's own fields, then (with the profile's list when it names one) the
     * placement core's rules against the team's quota and the plans it may use.
     */
    private Checked check(String team, JobRequest request, TeamState state) {
        List<Violation> violations = new ArrayList<>(validation.check(request));
        if (request == null) {
            throw new InvalidRequestException(violations);
        }
        List<RequestedEntry> entries = request.requestedEntries();
        Integer count = request.instanceCount();
        Long maxPending = request.maxPendingTimeInSeconds();
        Requirements requires = request.requires();
        ProfileView profile = null;
        if (request.profile() != null) {
            if (request.instancePreferences() != null || request.instanceCount() != null) {
                violations.add(new Violation("profile",
                        "give a profile or instancePreferences (with instanceCount), never both"));
            }
            profile = profiles.find(team, request.profile()).orElse(null);
            if (profile == null) {
                violations.add(new Violation("profile", "team " + team + " has no profile " + request.profile()));
                throw new InvalidRequestException(violations);
            }
            ProfileDefinition definition = profile.definition();
            if (definition.kind() != null && request.kind() != null && definition.kind() != request.kind()) {
                violations.add(new Violation("kind", "profile " + profile.name() + " is for "
                        + definition.kind() + " jobs"));
            }
            entries = definition.instancePreferences();
            count = definition.instanceCount();
            maxPending = maxPending != null ? maxPending : definition.maxPendingTimeInSeconds();
            requires = requires != null ? requires : definition.requires();
        }
        Map<String, PlanState> visiblePlans = plans.statesVisibleTo(team);
        SubmissionRules.Result checked = rules.check(new Submission(request.kind(), entries, count, maxPending,
                requires), state, visiblePlans);
        String from = profile == null ? "" : "profile " + profile.name() + " v" + profile.version() + ": ";
        checked.violations().forEach(v -> violations.add(new Violation(v.field(), from + v.message())));
        if (!violations.isEmpty()) {
            throw new InvalidRequestException(violations);
        }
        return new Checked(checked.preferences(), count,
                maxPending == null ? limits.defaultMaxPendingTime() : Duration.ofSeconds(maxPending), requires,
                profile == null ? null : new Job.ProfileRef(profile.name(), profile.version()), visiblePlans);
    }

    @Transactional(readOnly = true)
    public JobView describe(String team, String name) {
        Job job = find(team, name);
        return JobView.of(job, history.transitions(job.id()));
    }

    @Transactional(readOnly = true)
    public JobPage list(String team, JobStatus status, int page, int size) {
        teams.state(team);
        var violations = new ArrayList<Violation>();
        if (page < 0) {
            violations.add(new Violation("page", "must be 0 or more"));
        }
        if (size < 1 || size > MAX_PAGE_SIZE) {
            violations.add(new Violation("size", "must be from 1 to " + MAX_PAGE_SIZE));
        }
        if (!violations.isEmpty()) {
            throw new InvalidRequestException(violations);
        }
        var pageable = PageRequest.of(page, size, Sort.by(Sort.Order.desc("createdAt"), Sort.Order.desc("id")));
        Page<Job> found = status == null ? jobs.findByTeam(team, pageable)
                : jobs.findByTeamAndStatus(team, status, pageable);
        return new JobPage(found.map(job -> JobView.of(job, null)).getContent(), page, size,
                found.getTotalElements(), found.getTotalPages());
    }

    /** The teams' jobs that are waiting or on the provider, oldest first, for the dashboard. */
    @Transactional(readOnly = true)
    public List<JobView> live(java.util.Collection<String> teamNames) {
        return jobs.findByTeamInAndStatusInOrderByCreatedAt(teamNames, List.of(JobStatus.PENDING,
                JobStatus.STARTING, JobStatus.RUNNING, JobStatus.STOPPING)).stream()
                .map(job -> JobView.of(job, null)).toList();
    }

    @Transactional(readOnly = true)
    public List<EvaluationView> evaluations(String team, String name, int limit) {
        if (limit < 1 || limit > 500) {
            throw new InvalidRequestException("limit", "must be from 1 to 500");
        }
        return history.evaluations(find(team, name).id(), limit);
    }

    /** Stops a live job; stopping one that already ended is a conflict. */
    public JobView stop(String team, String name) {
        Job job = find(team, name);
        if (job.status().ended()) {
            throw new ConflictException("job " + name + " already ended: " + job.status());
        }
        if (job.status() != JobStatus.STOPPING) {
            lifecycle.stop(job.id(), StatusReason.STOPPED_BY_USER, "stopped by a user");
        }
        return describe(team, name);
    }

    @Transactional(readOnly = true)
    public String logs(String team, String name) {
        Job job = find(team, name);
        if (job.providerJobName() == null) {
            return "";
        }
        return provider.logs(job.providerJobName()).orElse("");
    }

    private Job find(String team, String name) {
        teams.state(team);
        return jobs.findByTeamAndName(team, name)
                .orElseThrow(() -> new NotFoundException("team " + team + " has no job " + name));
    }
}
