package io.spillover.jobs;

import io.spillover.audit.ChangeRecords;
import io.spillover.capacity.CapacityService;
import io.spillover.placement.PendingClock;
import io.spillover.shared.InvalidRequestException;
import io.spillover.shared.Violation;
import io.spillover.system.Access;
import io.spillover.system.Change;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionTemplate;

/** Takes a team's job requests: checks them against every rule and stores them as PENDING for the scheduler. */
@Service
public class JobSubmissions {

    private final Jobs jobs;
    private final NewJobs newJobs;
    private final JobHistory history;
    private final SubmissionChecks checks;
    private final CapacityService capacity;
    private final TransactionTemplate transactions;
    private final ApplicationEventPublisher events;
    private final QueueStatistics statistics;
    private final ChangeRecords records;
    private final Clock clock;
    private final GroupWriter<Stored, Transition> writer = new GroupWriter<>(MOST_STORED_TOGETHER, this::store);

    JobSubmissions(Jobs jobs, NewJobs newJobs, JobHistory history, SubmissionChecks checks,
                   CapacityService capacity, TransactionTemplate transactions, ApplicationEventPublisher events,
                   QueueStatistics statistics, ChangeRecords records, Clock clock) {
        this.statistics = statistics;
        this.records = records;
        this.jobs = jobs;
        this.newJobs = newJobs;
        this.capacity = capacity;
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
        // The reads are made on their own; the job is stored with the submissions that arrive with it, in one
        // transaction with their records of the change (GroupWriter), unless the caller runs a transaction already.
        // A name the team already has is found by its unique index, not by a look-up first.
        try {
            Optional<Submitted> replay = replayOf(team, request);
            if (replay.isPresent()) {
                return replay.get();
            }
            Job job = newJob(team, request, checks.check(team, request), now());
            Transition submitted = TransactionSynchronizationManager.isActualTransactionActive()
                    ? store(List.of(new Stored(job, Optional.empty()))).get(0)
                    : writer.write(new Stored(job, records.takeFromThread()));
            return new Submitted(JobView.of(job, List.of(TransitionView.of(submitted))), true);
        } catch (DataIntegrityViolationException e) {
            // A submission with the same client token committed first (it is answered), or the name is taken.
            return replayOf(team, request).orElseThrow(() -> nameTaken(team, request.name()));
        }
    }

    /** How many submissions wait for the transaction that stores others to end, to be stored together next. */
    int waitingToBeStored() {
        return writer.waiting();
    }

    /** A new job to store, with the record of the change that submits it when its thread handed the record over. */
    private record Stored(Job job, Optional<ChangeRecords.Carried> record) {
    }

    /** The most submissions one transaction stores together. */
    private static final int MOST_STORED_TOGETHER = 100;

    /**
     * Stores the jobs and their records of the change in one transaction (or in the caller's), and announces them to
     * the scheduler once it commits.
     */
    private List<Transition> store(List<Stored> jobs) {
        return transactions.execute(tx -> {
            jobs.forEach(stored -> stored.record().ifPresent(records::carry));
            List<Job> created = jobs.stream().map(Stored::job).toList();
            created.forEach(job -> capacity.tryWhereQuotasUnknown(job.preferences().entries()));
            List<Transition> submitted = newJobs.store(created);
            statistics.stored(created.size());
            created.forEach(job -> events.publishEvent(new JobSubmitted(job.id(), job.team())));
            return submitted;
        });
    }

    /** Now, to the microsecond PostgreSQL keeps, so that a job reads back as it was answered. */
    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MICROS);
    }

    /** Most jobs one batch may hold: a pipeline's fan-out, within the request body's size limit. */
    public static final int MAX_BATCH = 500;

    /**
     * Submits many jobs at once, all or none: every item is checked as {@link #submit} checks one (against the
     * same reading of the team's quota, plans and profiles), and when any fails nothing is stored and the
     * refusal names each failing item's fields ({@code jobs[3].instancePreferences[0].instanceType}). An item
     * whose client token the team has seen answers the job it made, so a retried batch makes nothing twice.
     * The new jobs are stored in one transaction.
     *
     * @return per item, in the order given
     */
    @Change(level = Access.Level.MEMBER, action = "submit jobs", target = "teams/{team}/jobs")
    public List<Submitted> submitAll(String team, List<JobRequest> requests) {
        if (requests == null || requests.isEmpty() || requests.size() > MAX_BATCH) {
            throw new InvalidRequestException("jobs", "give 1 to " + MAX_BATCH + " jobs");
        }
        try {
            return storeAll(team, requests);
        } catch (DataIntegrityViolationException e) {
            // A concurrent submission took a name or a client token first: what it made is now seen.
            return storeAll(team, requests);
        }
    }

    private List<Submitted> storeAll(String team, List<JobRequest> requests) {
        return transactions.execute(tx -> {
            Map<Integer, Job> replays = replays(team, requests);
            Map<Integer, Job> fresh = checked(team, requests, replays.keySet());
            List<Job> created = List.copyOf(fresh.values());
            created.forEach(job -> capacity.tryWhereQuotasUnknown(job.preferences().entries()));
            List<Transition> submitted = newJobs.store(created);
            statistics.stored(created.size());
            created.forEach(job -> events.publishEvent(new JobSubmitted(job.id(), team)));
            Map<UUID, List<TransitionView>> transitions = new HashMap<>(replays.isEmpty() ? Map.of()
                    : history.transitions(replays.values().stream().map(Job::id).toList()));
            submitted.forEach(t -> transitions.put(t.jobId(), List.of(TransitionView.of(t))));
            var answers = new ArrayList<Submitted>(requests.size());
            for (int i = 0; i < requests.size(); i++) {
                Job job = fresh.containsKey(i) ? fresh.get(i) : replays.get(i);
                answers.add(new Submitted(JobView.of(job, transitions.getOrDefault(job.id(), List.of())),
                        fresh.containsKey(i)));
            }
            return answers;
        });
    }

    /** By item, the jobs that earlier submissions with the items' client tokens made. */
    private Map<Integer, Job> replays(String team, List<JobRequest> requests) {
        List<String> tokens = requests.stream().filter(Objects::nonNull).map(JobRequest::clientToken)
                .filter(Objects::nonNull).distinct().toList();
        if (tokens.isEmpty()) {
            return Map.of();
        }
        Map<String, Job> byToken = new HashMap<>();
        jobs.findByTeamAndClientTokenIn(team, tokens).forEach(job -> byToken.put(job.clientToken(), job));
        var replays = new HashMap<Integer, Job>();
        var firstWithToken = new HashSet<String>();
        for (int i = 0; i < requests.size(); i++) {
            JobRequest request = requests.get(i);
            if (request != null && byToken.containsKey(request.clientToken())
                    && firstWithToken.add(request.clientToken())) {
                replays.put(i, byToken.get(request.clientToken()));
            }
        }
        return replays;
    }

    /**
     * By item, the new job of every item that replays nothing; {@link InvalidRequestException} naming every
     * broken rule of every item (and a client token or a name that two items share, or that a job of the
     * team already has) when any breaks one.
     */
    private Map<Integer, Job> checked(String team, List<JobRequest> requests, Set<Integer> replayed) {
        var violations = new ArrayList<Violation>();
        var checks = this.checks.forTeam(team);
        var firstWithName = new HashMap<String, Integer>();
        var firstWithToken = new HashMap<String, Integer>();
        var fresh = new LinkedHashMap<Integer, Job>();
        Instant now = now();
        for (int i = 0; i < requests.size(); i++) {
            JobRequest request = requests.get(i);
            String item = "jobs[" + i + "]";
            Integer sameToken = request == null || request.clientToken() == null ? null
                    : firstWithToken.putIfAbsent(request.clientToken(), i);
            if (sameToken != null) {
                violations.add(new Violation(item + ".clientToken", "jobs[" + sameToken + "] has it too"));
                continue;
            }
            if (replayed.contains(i)) {
                continue;
            }
            try {
                Job job = newJob(team, request, checks.check(request), now);
                Integer sameName = firstWithName.putIfAbsent(job.name(), i);
                if (sameName != null) {
                    violations.add(new Violation(item + ".name", "jobs[" + sameName + "] has it too"));
                }
                fresh.put(i, job);
            } catch (InvalidRequestException refused) {
                refused.violations().forEach(v -> violations.add(v.at(item + "." + v.field())));
            }
        }
        if (!firstWithName.isEmpty()) {
            for (String taken : jobs.namesTaken(team, firstWithName.keySet())) {
                violations.add(new Violation("jobs[" + firstWithName.get(taken) + "].name",
                        "team " + team + " already has a job named " + taken));
            }
        }
        if (!violations.isEmpty()) {
            violations.sort(Comparator.comparingInt((Violation v) -> itemOf(v.field())));
            throw new InvalidRequestException(violations);
        }
        return fresh;
    }

    /** The item index a violation of a batch names ({@code jobs[12].name}: 12). */
    private static int itemOf(String field) {
        return Integer.parseInt(field.substring("jobs[".length(), field.indexOf(']')));
    }

    private Job newJob(String team, JobRequest request, SubmissionChecks.Checked checked, Instant now) {
        return newJob(team, nameFor(request), request, checked, now);
    }

    /** The request's name, or one made of its kind and a random suffix. */
    private static String nameFor(JobRequest request) {
        return request.name() != null ? request.name()
                : request.kind().name().toLowerCase() + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    private Job newJob(String team, String name, JobRequest request, SubmissionChecks.Checked checked, Instant now) {
        return Job.submit(UUID.randomUUID(), team, name, request.kind(), checked.preferences(),
                checked.instanceCount(), checked.maxPending(),
                PendingClock.startsAt(checked.preferences(), checked.plans(), now),
                request.maxRuntimeInSeconds(), request.priority() == null ? 0 : request.priority(),
                request.clientToken(), new JobSpec(request.container(), request.local(), checked.sagemaker(),
                        checked.requires(), checked.fallbackAfterSeconds(), request.expectedRuntimeSeconds()),
                checked.profile(), Boolean.TRUE.equals(request.preemptible()), now);
    }

    private static InvalidRequestException nameTaken(String team, String name) {
        return new JobNameTakenException("name", name == null ? "another submission took the name made for this job"
                : "team " + team + " already has a job named " + name);
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
