package io.spillover.scheduling;

import io.spillover.capacity.CapacityService;
import io.spillover.capacity.Offerings;
import io.spillover.jobs.JobLifecycle;
import io.spillover.jobs.PendingJobs;
import io.spillover.jobs.PendingJobs.TypeInRegion;
import io.spillover.jobs.QueuedJob;
import io.spillover.jobs.RunningJobs;
import io.spillover.jobs.StatusReason;
import io.spillover.placement.Capacity;
import io.spillover.placement.Decision;
import io.spillover.placement.OfferingKey;
import io.spillover.placement.OfferingState;
import io.spillover.placement.Placement;
import io.spillover.placement.QueuePass;
import io.spillover.placement.QueuedRequest;
import io.spillover.placement.PreferenceEntry;
import io.spillover.placement.TeamState;
import io.spillover.plans.PlanChanged;
import io.spillover.plans.PlanService;
import io.spillover.queue.FairShares;
import io.spillover.tenancy.CapacityRefusedException;
import io.spillover.tenancy.SharingProperties;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.orm.ObjectOptimisticLockingFailureException;
import org.springframework.stereotype.Component;

/**
 * One scheduling cycle, as a pipeline: (1) apply the timers that fell due — pending deadlines, run-time
 * limits, unavailable marks running out; (2) snapshot the capacity (with the placements holding instances, when
 * teams may share quota) and the pending jobs the wake-up concerns, and the teams' fair shares; (3) decide: the
 * placement core's {@link QueuePass} takes the jobs under the platform's queue and sharing policies against the
 * snapshot, with no I/O; (4) apply: commit each selection (the database refusing any overbooking), log the
 * evaluations that placed nothing, and stop, with the grace, the borrowers the pass preempts for a team below its
 * guarantee.
 *
 * <p>The cycle remembers two things of the policy between cycles, in memory only (a new leader's first sweep
 * finds them again): when a waiting job's patience opens its next entry (or a borrower it waits for passes its
 * minimum run), so the scheduler wakes for it then, and which jobs hold or claim instances (and what they claim),
 * so every cycle that could give those instances away includes them and serves the claimants first.
 */
@Component
class SchedulingCycle {

    private static final Logger log = LoggerFactory.getLogger(SchedulingCycle.class);

    private final JobLifecycle lifecycle;
    private final PendingJobs queue;
    private final CapacityService capacity;
    private final Offerings offerings;
    private final QueuePass pass;
    private final Wakeups wakeups;
    private final PlanService plans;
    private final FairShares fairShares;
    private final RunningJobs running;
    private final SharingProperties sharing;
    private final Clock clock;
    private final SchedulingProperties properties;
    private final Map<UUID, Instant> revisits = new HashMap<>();
    private Set<UUID> holders = Set.of();
    /** What the last pass's claimants claimed: the next pass serves them first, so what came back is theirs. */
    private Map<UUID, QueuePass.Claim> claims = Map.of();
    /** The windows of this cycle's read that came back full, with their jobs: their lines go on past what was read. */
    private Map<PendingJobs.Window, Set<UUID>> readOn = Map.of();

    SchedulingCycle(JobLifecycle lifecycle, PendingJobs queue, CapacityService capacity, Offerings offerings,
                    Placement placement, Wakeups wakeups, PlanService plans, FairShares fairShares, RunningJobs running,
                    SharingProperties sharing, SchedulingProperties properties, Clock clock) {
        this.properties = properties;
        this.plans = plans;
        this.fairShares = fairShares;
        this.running = running;
        this.sharing = sharing;
        this.lifecycle = lifecycle;
        this.queue = queue;
        this.capacity = capacity;
        this.offerings = offerings;
        // a reclaim waits at most for the next sweep should the event that would act on it be missed
        this.pass = new QueuePass(placement, fairShares.policy(), sharing.policy(properties.sweepInterval()));
        this.wakeups = wakeups;
        this.clock = clock;
    }

    /**
     * Most jobs one cycle evaluates by name: a burst of submissions names every job, and a release that lands behind
     * it should wait for one slice of their first evaluations, not all of them. The rest go to the next cycle. (A
     * release never needs them: the windows it reads hold every job in line for what it freed, new ones included.)
     */
    static final int NAMED_PER_CYCLE = 500;

    /** @return whether the cycle had anything to evaluate */
    boolean run(Scope scope, Timers timers) {
        Scope later = scope.deferNamedBeyond(NAMED_PER_CYCLE);
        Set<UUID> evaluated = new HashSet<>();
        try {
            return run(scope, timers, evaluated);
        } finally {
            // a deferred job this cycle evaluated anyway (a window held it) is done; what came since about the others wins
            later.forgetJobs(evaluated);
            if (!later.isEmpty()) {
                wakeups.giveBack(later);
            }
        }
    }

    private boolean run(Scope scope, Timers timers, Set<UUID> evaluated) {
        Instant now = clock.instant();
        applyTimers(now, scope, timers);
        for (Iterator<Map.Entry<UUID, Instant>> due = revisits.entrySet().iterator(); due.hasNext(); ) {
            Map.Entry<UUID, Instant> revisit = due.next();
            if (!revisit.getValue().isAfter(now)) {
                scope.and(Scope.job(revisit.getKey(), Trigger.FALLBACK_OPENED));
                due.remove();
            }
        }
        if (scope.isEmpty()) {
            return false;
        }
        for (UUID holder : holders) {
            if (!scope.jobs().containsKey(holder)) {
                scope.and(Scope.job(holder, Trigger.HOLDING));
            }
        }
        Capacity snapshot = sharing.enabled() ? capacity.snapshot(() -> running.placements(now)) : capacity.snapshot();
        List<QueuedJob> candidates = candidates(scope, snapshot, now);
        // the sweeps' runs are read for jobs of a sweep only: a cycle of jobs without one makes no round trip for them
        FairShares.Snapshot shares = fairShares.forCycle(candidates.stream().map(QueuedJob::sweep)
                .filter(Objects::nonNull).distinct().toList());
        Set<UUID> firstLooks = new HashSet<>();
        candidates.stream().filter(job -> !job.evaluated()).forEach(job -> firstLooks.add(job.id()));
        List<QueuedRequest<UUID>> queue = candidates.stream()
                .map(job -> job.queued(shares.expectedRuntime(job.team(), job.profile(), job.maxRuntime(), job.hint(),
                        job.sweep())))
                .toList();
        // Decisions are stamped after the read, so none is dated before the submission of a job it concerns.
        Instant decidedAt = clock.instant();
        QueuePass.Result<UUID> result = pass.decide(queue, snapshot, shares.shares(), decidedAt, claims);
        // every holder and claimant was in the scope, so the pass saw them all
        var holding = new HashSet<UUID>(result.holds().values());
        holding.addAll(result.claims().keySet());
        holders = Set.copyOf(holding);
        claims = result.claims();
        var waiting = new ArrayList<JobLifecycle.Evaluated>();
        for (QueuePass.Outcome<UUID> outcome : result.outcomes()) {
            QueuedRequest<UUID> job = outcome.job();
            evaluated.add(job.id());
            String trigger = scope.triggerFor(job.id(), job.request().team(), offeringsOf(job),
                    firstLooks.contains(job.id())).name();
            revisits.remove(job.id());
            if (outcome.decision().isSelected()) {
                commit(job.id(), outcome.decision(), trigger, decidedAt);
            } else {
                waiting.add(new JobLifecycle.Evaluated(job.id(), job.request().team(), outcome.decision(), trigger,
                        firstLooks.contains(job.id())));
                if (outcome.revisitAt() != null) {
                    revisits.put(job.id(), outcome.revisitAt());
                }
            }
        }
        lifecycle.recordWaiting(waiting, decidedAt);
        readOnWhereLinesMoved(result, snapshot);
        result.preemptions().forEach(preemption -> preempt(preemption, result.claims().get(preemption.forJob())));
        return true;
    }

    /**
     * Stops a borrower for the job that claims its instances, with the grace: the job ends its attempt (SIGTERM, then
     * the provider's stop), and when the provider confirms, it waits again at its queue position while its instances
     * go to the claiming job, whose claim the next cycles keep.
     */
    private void preempt(QueuePass.Preemption<UUID> preemption, QueuePass.Claim claim) {
        UUID victim = UUID.fromString(preemption.victim().job());
        try {
            lifecycle.preempt(victim, preemption.reason(), claim != null && claim.withinTeam(),
                    sharing.preemptionGrace());
        } catch (RuntimeException e) {
            log.error("Could not preempt job {} for job {}; the claim stands and the next cycle decides again",
                    victim, preemption.forJob(), e);
        }
    }

    /** When the earliest waiting job's patience opens an entry: the scheduler wakes then. */
    Optional<Instant> nextRevisit() {
        return revisits.values().stream().min(Instant::compareTo);
    }

    /**
     * When the timers the scheduler waits for fall due, as it read them before it slept: the first pending deadline
     * or run-time limit, the first unavailable mark to run out, and the next start or end of a plan's window. A job
     * submitted or started since has a deadline at least its maximum pending or run time away, so the next reading,
     * before the next sleep, sees it in time; a plan registered since is read then too, and its window moves at its
     * boundary (a plan whose window has begun already is registered active).
     */
    record Timers(Optional<Instant> nextDeadline, Optional<Instant> nextMarkExpiry, Optional<Instant> nextPlanBoundary) {
    }

    /**
     * Stops jobs whose pending or run time ran out, lifts expired marks, moves plans whose window began or
     * ended (stopping the jobs on an ended plan) and adds what that frees to the scope. The jobs, marks and plans are
     * looked for only when one of them has fallen due, and at every sweep: otherwise the statements that look (and
     * the plans' transaction) would run in every cycle, and almost always find nothing.
     */
    private void applyTimers(Instant now, Scope scope, Timers timers) {
        if (scope.everything() || due(timers.nextDeadline(), now)) {
            for (UUID id : lifecycle.pendingPastDeadline(now)) {
                lifecycle.stop(id, StatusReason.MAX_PENDING_TIME_EXCEEDED, "no entry had capacity within the job's"
                        + " maximum pending time");
            }
            for (UUID id : lifecycle.runningPastLimit(now)) {
                lifecycle.stop(id, StatusReason.MAX_RUNTIME_EXCEEDED, "ran longer than its maximum run time");
            }
        }
        if (scope.everything() || due(timers.nextMarkExpiry(), now)) {
            for (OfferingKey lifted : offerings.liftExpiredMarks(now)) {
                scope.and(Scope.offering(lifted, Trigger.UNAVAILABLE_EXPIRED));
            }
        }
        if (!scope.everything() && !due(timers.nextPlanBoundary(), now)) {
            return;
        }
        for (PlanChanged moved : plans.advance(now)) {
            if (moved.activated()) {
                scope.and(Scope.offering(moved.offering(), Trigger.PLAN_ACTIVATED));
            } else if (moved.expired()) {
                for (UUID id : lifecycle.onSource(moved.offering().source())) {
                    lifecycle.stop(id, StatusReason.PLAN_EXPIRED, "training plan " + moved.plan() + " ended");
                }
            }
        }
    }

    private static boolean due(Optional<Instant> at, Instant now) {
        return at.filter(time -> !time.isAfter(now)).isPresent();
    }

    /**
     * The pending jobs the scope concerns that the pass needs to see. A cycle reads the heads of the lines that could
     * move: for each offering with an instance free, and each team waiting on it whose chance there may have changed
     * (every team for an offering whose capacity grew, the scope's teams for every free offering), the team's first
     * jobs in queue order that could fit there, and {@link SchedulingProperties#lookAhead} more for the policy to
     * choose among (a window; {@link PendingJobs#heads}); plus the named jobs (new submissions, holders, jobs whose
     * patience ran out, jobs never evaluated, jobs that gave way to a teammate) and the head of every strict-FIFO team
     * among them (its first job holds its later ones back). A release so costs what it could start, not the length of
     * the queue: a job deeper in a line is read when the jobs ahead of it start ({@link #readOn}) or leave.
     *
     * <p>Of what was read, the pass sees the named jobs, strict-FIFO teams' jobs, the jobs of several instances old
     * enough to hold what frees, and the others only if they {@link Capacity#anyEntryCouldFit could fit}. A job that
     * cannot be placed changes no other job's decision; its last evaluation stands.
     *
     * <p>An offering counts as free here for the instances it has free and those a reclaim could take back from
     * borrowers ({@link Capacity#reclaimable}): a lender's job waiting on an offering that borrowers fill must be
     * read by a sweep, or when its team's guarantee grows, to claim them (a new leader knows no earlier claim).
     * With in-team preemption on ({@link io.spillover.placement.SharingPolicy#shorterFirst}) the preemptible
     * placements count too, and a job whose team holds some on its offerings is seen: its teammates may give way.
     *
     * <p>A sweep (a scope of everything) reads every free offering's windows, and the jobs no cycle has evaluated
     * yet: the sweep, a safety net for a missed wake-up, costs no walk of the queue either.
     */
    private List<QueuedJob> candidates(Scope scope, Capacity snapshot, Instant now) {
        Set<UUID> named = new HashSet<>(scope.jobs().keySet());
        boolean shorterFirst = pass.sharing().enabled() && pass.sharing().shorterFirst() > 0;
        // what a job could get: the free instances, and those borrowers hold that a team below its guarantee may take
        // back (a lender's job must be read to reclaim them, however full the offering is)
        Map<TypeInRegion, Integer> free = new HashMap<>();
        snapshot.offerings().forEach(o -> {
            int fit = o.available() + snapshot.reclaimable(o.key())
                    + (shorterFirst ? snapshot.preemptibleOn(o.key()) : 0);
            if (fit > 0) {
                free.merge(TypeInRegion.of(o.key()), fit, Integer::sum);
            }
        });
        Collection<TypeInRegion> everyTeam;
        Collection<String> teams;
        if (shorterFirst) {
            named.addAll(queue.gaveWay()); // they resume first, wherever they stand in the queue
        }
        if (scope.everything()) {
            named.addAll(queue.unevaluated(NAMED_PER_CYCLE));
            everyTeam = free.keySet();
            teams = Set.of();
        } else {
            everyTeam = scope.offerings().keySet().stream().map(TypeInRegion::of).toList();
            teams = scope.teams().keySet();
        }
        Duration holdAge = fairShares.policy().reserveAfter();
        PendingJobs.Heads heads = queue.heads(new PendingJobs.Ask(named, free, everyTeam, teams,
                holdAge == null ? null : now.minus(holdAge), properties.lookAhead()));
        readOn = heads.full();
        List<QueuedJob> found = heads.jobs();
        Set<String> strictTeams = new HashSet<>();
        found.stream().map(QueuedJob::team).filter(team -> strictFifo(snapshot, team)).forEach(strictTeams::add);
        if (!strictTeams.isEmpty()) {
            var all = new LinkedHashMap<UUID, QueuedJob>();
            found.forEach(job -> all.put(job.id(), job));
            List<QueuedJob> strictHeads = queue.teamHeads(strictTeams, properties.lookAhead());
            strictHeads.forEach(job -> all.putIfAbsent(job.id(), job));
            found = List.copyOf(all.values());
        }
        return found.stream().filter(job -> named.contains(job.id()) || strictFifo(snapshot, job.team())
                || mayHold(job, now) || snapshot.anyEntryCouldFit(job.queued(null).request())
                || shorterFirst && snapshot.teamHoldsPreemptible(job.queued(null).request())).toList();
    }

    /**
     * After the pass: a window that came back full ends short of its line. When the pass started some of its jobs (on
     * this offering or on another entry of theirs) and instances of the window's type are still free, the jobs
     * behind them may fit too, so the next cycle reads on, as if the jobs ahead had left the queue (they did).
     */
    private void readOnWhereLinesMoved(QueuePass.Result<UUID> result, Capacity working) {
        if (readOn.isEmpty()) {
            return;
        }
        Set<UUID> started = new HashSet<>();
        result.booked().forEach(job -> started.add(job.id()));
        readOn.forEach((window, jobs) -> {
            // free() leaves out instances held for a job: those are not for the line behind it
            boolean stillFree = working.offerings().stream()
                    .anyMatch(o -> TypeInRegion.of(o.key()).equals(window.offering()) && working.free(o.key()) > 0);
            if (stillFree && jobs.stream().anyMatch(started::contains)) {
                wakeups.add(Scope.team(window.team(), Trigger.JOB_LEFT_QUEUE));
            }
        });
    }

    /** A job of several instances past the policy's hold age: the pass may hold instances for it, fitting or not. */
    private boolean mayHold(QueuedJob job, Instant now) {
        Duration age = fairShares.policy().reserveAfter();
        return age != null && !job.createdAt().plus(age).isAfter(now)
                && job.preferences().entries().stream().allMatch(e -> e.instanceCount() > 1);
    }

    /**
     * Commits one selection; when the database refuses it (someone took the capacity first) the job is
     * evaluated again. Later decisions of the pass counted this booking, so a refusal never overbooks.
     */
    private void commit(UUID job, Decision decision, String trigger, Instant now) {
        try {
            lifecycle.start(job, decision, trigger, now);
        } catch (CapacityRefusedException | ObjectOptimisticLockingFailureException e) {
            log.info("Placement of job {} refused by the database ({}); evaluating it again", job, e.getMessage());
            wakeups.add(Scope.job(job, Trigger.PLACEMENT_CONFLICT));
        }
    }

    private static List<OfferingKey> offeringsOf(QueuedRequest<UUID> job) {
        return job.request().preferences().entries().stream().map(PreferenceEntry::offering).toList();
    }

    private static boolean strictFifo(Capacity snapshot, String team) {
        return snapshot.team(team).map(TeamState::strictFifo).orElse(false);
    }
}
