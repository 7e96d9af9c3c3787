package io.spillover.replay;

import io.spillover.placement.Capacity;
import io.spillover.placement.Decision;
import io.spillover.placement.EntryVerdict;
import io.spillover.placement.Placement;
import io.spillover.placement.PreferenceEntry;
import io.spillover.placement.QueuePass;
import io.spillover.placement.QueuePolicy;
import io.spillover.placement.QueuedRequest;
import io.spillover.placement.RunningPlacement;
import io.spillover.placement.SharingPolicy;
import io.spillover.placement.TeamShare;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.TreeMap;

/**
 * Policies (a), (b) and the queue policies: jobs wait in Spillover's queue, served as the service serves it.
 * At every virtual second where something happens, job ends give their instances back first (and their
 * usage to their team's fair share), then arrivals join the queue, then one scheduling step runs: snapshot
 * the {@link Ledger}, let {@link QueuePass} decide under the policy's {@link QueuePolicy}, and start what it
 * selected.
 *
 * <p>Like the service, a step after arrivals only evaluates the new jobs (SUBMITTED), a step after a release
 * evaluates the queue (CAPACITY_RELEASED; here the whole queue, a superset of the service's scope), and a job
 * is evaluated again when its patience opens an entry (the service's timer). Jobs holding instances and jobs
 * of several instances past the policy's hold age are in every step, as the service adds them to every
 * cycle. Older jobs need no evaluation after arrivals alone: they did not fit at the last step and capacity
 * only shrank since. In the default mode the pass is fed only the jobs that pass {@link FreeCapacity}'s
 * necessary condition (and the holders); a job that fails it books nothing and changes no other decision.
 * {@code exact} mode hands QueuePass the whole queue at every step (slow; the tests compare both).
 *
 * <p>When the policy shares guarantees ({@link Lending}), the snapshot also holds the running placements, each job
 * says what bounds it if it borrows, and the step applies what the pass decided as the scheduler does: a preempted
 * placement runs on for the grace, then gives its instances back and its job is requeued at its queue position,
 * resuming from its last checkpoint on whichever entry it gets next (or, preempted once more than its maximum, ends
 * for good). The jobs that claim instances are in every step, as holders are, and are evaluated again when a
 * placement they wait for passes its minimum run.
 */
public final class QueueReplay {

    /**
     * A run going on: an attempt of a job of the replay's, or (job null) a {@link Holding} from before it began.
     *
     * @param preemptedAt when a reclaim stopped it (it ends at the grace's end), -1 when none did
     * @param naturalEnd  when it would end if nothing stopped it
     * @param restart     what it spends resuming from a checkpoint before it works (0 for a first attempt)
     */
    record Running(long endSeconds, int rank, long startSeconds, ReplayJob job, String team,
                   PreferenceEntry entry, double charge, int choice, boolean borrowed, boolean preemptible,
                   long preemptedAt, long naturalEnd, long restart) {

        Running stoppedAt(long at, long graceSeconds) {
            return new Running(Math.min(endSeconds, at + graceSeconds), rank, startSeconds, job, team, entry, charge,
                    choice, borrowed, preemptible, at, naturalEnd, restart);
        }

        boolean stopped() {
            return preemptedAt >= 0 && endSeconds < naturalEnd;
        }
    }

    /** A job's attempts so far, when a reclaim stopped one: its progress, kept in its checkpoints. */
    private static final class Attempts {
        final List<JobRun.Attempt> stopped = new ArrayList<>();
        /** Work kept, as a share of the whole run (the same share on any type). */
        double done;
    }

    private record Revisit(long atSeconds, int rank, QueuedRequest<String> job) {
    }

    /** How many of a team's latest runs its expected run times come from. */
    static final int HISTORY = 100;

    private final Fleet fleet;
    private final Placement placement;
    private final boolean exact;

    /** @param exact hand the core the whole queue at every step (slow; for checking the shortcut) */
    public QueueReplay(Fleet fleet, boolean exact) {
        this.fleet = fleet;
        this.placement = new Placement(fleet.catalog());
        this.exact = exact;
    }

    /** @param jobs in submission order */
    public PolicyRun run(Policy policy, List<ReplayJob> jobs) {
        return run(policy, jobs, List.of(), Progress.NONE);
    }

    /**
     * @param jobs     in submission order
     * @param holdings what runs from before the replay hold when it begins
     * @param progress told of each start
     */
    public PolicyRun run(Policy policy, List<ReplayJob> jobs, List<Holding> holdings, Progress progress) {
        return run(policy, jobs, holdings, progress, null);
    }

    /**
     * The replay as it stands after a step, for an observer that reads it and changes nothing (the estimates of
     * {@link EstimateAccuracy}).
     *
     * @param submitted  the jobs submitted at this step
     * @param sharing    how the policy lends, borrows and reclaims ({@link SharingPolicy#OFF} for hard limits)
     * @param placements the running placements as the step's pass read them (empty without sharing)
     */
    record Step(long now, QueuePolicy rules, Ledger ledger, RuntimeHistory history,
                java.util.Map<QueuedRequest<String>, ReplayJob> pending, java.util.Collection<Running> running,
                List<ReplayJob> submitted, SharingPolicy sharing, List<RunningPlacement> placements) {
    }

    /** Told of every step once its starts are made; reads only. */
    interface Observer {
        void stepped(Step step);
    }

    PolicyRun run(Policy policy, List<ReplayJob> jobs, List<Holding> holdings, Progress progress, Observer observer) {
        if (policy instanceof Policy.Polling || policy instanceof Policy.Uncapped) {
            throw new IllegalArgumentException("polling has no server-side queue (see PollingReplay), and an uncapped"
                    + " policy runs on an uncapped fleet (see Replay)");
        }
        QueuePolicy rules = policy instanceof Policy.Queued queued ? queued.queue() : QueuePolicy.FIRST_FIT;
        Policy.Knowledge knowledge = policy instanceof Policy.Queued queued ? queued.knowledge()
                : Policy.Knowledge.HISTORY;
        Lending lending = policy instanceof Policy.Queued queued ? queued.lending() : Lending.OFF;
        boolean sharing = lending.enabled();
        long grace = lending.policy().grace().toSeconds();
        var pass = new QueuePass(placement, rules, lending.policy());
        var teams = new java.util.LinkedHashSet<String>();
        jobs.forEach(job -> teams.add(job.team()));
        holdings.forEach(holding -> teams.add(holding.team()));
        var ledger = new Ledger(fleet, teams);
        var plans = new PlanWatch(fleet);
        var pending = new TreeMap<QueuedRequest<String>, ReplayJob>(QueuedRequest.queueOrder());
        var running = new PriorityQueue<Running>(Comparator.comparingLong(Running::endSeconds)
                .thenComparingInt(Running::rank));
        var revisits = new PriorityQueue<Revisit>(Comparator.comparingLong(Revisit::atSeconds)
                .thenComparingInt(Revisit::rank));
        Set<QueuedRequest<String>> severalInstances = new LinkedHashSet<>();
        Set<QueuedRequest<String>> holders = new HashSet<>();
        Set<QueuedRequest<String>> claimants = new HashSet<>();
        Map<String, QueuePass.Claim> lastClaims = Map.of();
        var scheduled = new HashMap<String, Long>();
        var queuedOf = new HashMap<String, QueuedRequest<String>>();
        var runningOf = new HashMap<String, Running>();
        var attempts = new HashMap<String, Attempts>();
        var claimedAt = new HashMap<String, Long>();
        var reclaimDelays = new ArrayList<Long>();
        var preemptibleDelays = new ArrayList<Long>();
        var awaitedBounded = new HashSet<String>();
        var gaveWayTo = new HashSet<String>();
        long preemptions = 0;
        long borrowedStarts = 0;
        var runs = new ArrayList<JobRun>(jobs.size());
        var history = new RuntimeHistory(HISTORY);
        long evaluations = 0;
        long events = 0;
        int started = 0;
        int next = 0;
        for (Holding holding : holdings) {
            ledger.hold(holding.team(), holding.entry());
            running.add(new Running(holding.untilSeconds(), -1 - running.size(), 0, null, holding.team(),
                    holding.entry(), 0, 0, false, false, -1, holding.untilSeconds(), 0));
        }
        while (next < jobs.size() || !running.isEmpty()) {
            long now = Math.min(next < jobs.size() ? jobs.get(next).submitSeconds() : Long.MAX_VALUE,
                    running.isEmpty() ? Long.MAX_VALUE : running.peek().endSeconds());
            if (!revisits.isEmpty() && revisits.peek().atSeconds() < now) {
                now = revisits.peek().atSeconds();
            }
            Instant at = VirtualTime.at(now);
            plans.advance(now, ledger.inUse());
            boolean released = false;
            var concerned = new LinkedHashSet<QueuedRequest<String>>();
            while (!running.isEmpty() && running.peek().endSeconds() == now) {
                Running ended = running.poll();
                ledger.release(ended.team(), ended.entry(), VirtualTime.at(ended.startSeconds()), at,
                        rules.shareHalfLife(), ended.charge());
                released = true;
                events++;
                if (ended.job() == null) {
                    continue;
                }
                ReplayJob job = ended.job();
                runningOf.remove(job.id());
                Attempts before = attempts.get(job.id());
                if (!ended.stopped()) {
                    long alone = job.runSeconds(ended.entry().instanceType());
                    history.ended(job, Duration.ofSeconds(before == null ? now - ended.startSeconds() : alone));
                    runs.add(new JobRun(job, ended.startSeconds(), now, ended.choice(), ended.entry(),
                            before == null ? List.of() : before.stopped, ended.borrowed(), ended.restart()));
                    continue;
                }
                // stopped by a reclaim: keep what its checkpoints saved, requeue it at its place
                Attempts state = attempts.computeIfAbsent(job.id(), id -> new Attempts());
                long run = job.runSeconds(ended.entry().instanceType());
                long worked = now - ended.startSeconds() - ended.restart();
                long saved = Math.min(lending.saved(worked), Math.max(0, Math.round((1 - state.done) * run) - 1));
                state.done += (double) saved / run;
                state.stopped.add(new JobRun.Attempt(ended.startSeconds(), now, ended.entry(), ended.borrowed(),
                        now - ended.startSeconds() - saved));
                history.stopped(job);
                QueuedRequest<String> queued = queuedOf.get(job.id());
                boolean gaveWay = gaveWayTo.remove(job.id());
                if (gaveWay != queued.gaveWay()) {
                    queued = queued.withGaveWay(gaveWay);
                    queuedOf.put(job.id(), queued);
                }
                if (state.stopped.size() >= lending.maxPreemptions() && queued.request().preemptible()) {
                    // preempted as often as it may be: no longer preemptible, it borrows only within the horizon
                    queued = queued.withRequest(queued.request().withPreemptible(false));
                    queuedOf.put(job.id(), queued);
                }
                pending.put(queued, job);
                plans.waiting(queued.request().preferences().entries(), 1);
                if (queued.request().preferences().entries().stream().allMatch(e -> e.instanceCount() > 1)) {
                    severalInstances.add(queued);
                }
                concerned.add(queued);
            }
            int firstSubmitted = next;
            while (next < jobs.size() && jobs.get(next).submitSeconds() == now) {
                ReplayJob job = jobs.get(next++);
                history.submitted(job);
                QueuedRequest<String> asSubmitted = job.queued(job.preferences(policy));
                QueuedRequest<String> queued = sharing || lending.declaresMaxRuntime()
                        ? asSubmitted.withRequest(lending.terms(job, asSubmitted.request())) : asSubmitted;
                queuedOf.put(job.id(), queued);
                pending.put(queued, job);
                plans.waiting(queued.request().preferences().entries(), 1);
                if (queued.request().preferences().entries().stream().allMatch(e -> e.instanceCount() > 1)) {
                    severalInstances.add(queued);
                }
                revisit(pass, revisits, queued, job.rank(), ledger.snapshot(), at);
                concerned.add(queued);
                events++;
            }
            while (!revisits.isEmpty() && revisits.peek().atSeconds() == now) {
                Revisit due = revisits.poll();
                scheduled.remove(due.job().id(), now);
                // pending finds a job by its queue position, not by its request, which changes when a preempted job
                // is requeued: a revisit due since concerns the request as it waits now (else the pass would see
                // the job twice, and start the one that no longer waits)
                if (pending.containsKey(due.job())) {
                    QueuedRequest<String> waiting = queuedOf.get(due.job().id());
                    concerned.add(waiting);
                    revisit(pass, revisits, waiting, due.rank(), ledger.snapshot(), at);
                    events++;
                }
            }
            if (exact || released) {
                concerned.addAll(pending.keySet());
            }
            concerned.addAll(holders);
            claimants.stream().filter(pending::containsKey).map(job -> queuedOf.get(job.id())).forEach(concerned::add);
            if (rules.reserveAfter() != null) {
                severalInstances.stream().filter(j -> !j.submittedAt().plus(rules.reserveAfter()).isAfter(at))
                        .forEach(concerned::add);
            }
            Capacity snapshot = sharing ? ledger.snapshot(placements(running, attempts, lending), true)
                    : ledger.snapshot(List.of(), false);
            List<QueuedRequest<String>> considered = exact ? List.copyOf(concerned)
                    : couldFit(concerned, holders, severalInstances, snapshot, sharing,
                    sharing && lending.policy().shorterFirst() > 0);
            // the queue holds each request as submitted; the pass gets it with the run expected at this step
            var asQueued = new HashMap<String, QueuedRequest<String>>();
            var candidates = new ArrayList<QueuedRequest<String>>(considered.size());
            for (QueuedRequest<String> job : considered) {
                if (asQueued.put(job.id(), job) != null) {
                    throw new IllegalStateException("the pass would see job " + job.id() + " twice");
                }
                candidates.add(job.withExpectedRuntime(expected(knowledge, pending.get(job),
                        job.request().maxRuntime(), history, now)));
            }
            QueuePass.Result<String> result = pass.decide(candidates, snapshot,
                    ledger.shares(at, rules.shareHalfLife()), at, lastClaims);
            lastClaims = result.claims();
            evaluations += candidates.size();
            holders = new HashSet<>();
            for (String holder : result.holds().values()) {
                holders.add(asQueued.get(holder));
            }
            claimants = new HashSet<>();
            for (Map.Entry<String, QueuePass.Claim> claim : result.claims().entrySet()) {
                claimants.add(asQueued.get(claim.getKey()));
                if (claim.getValue().withinTeam()) {
                    continue; // teammates giving way: no lender's claim on borrowers
                }
                claimedAt.putIfAbsent(claim.getKey(), now);
                if (claim.getValue().awaited() > 0) {
                    awaitedBounded.add(claim.getKey()); // it waits for a bounded borrower to end
                }
            }
            for (QueuePass.Outcome<String> outcome : result.outcomes()) {
                Decision decision = outcome.decision();
                QueuedRequest<String> queued = asQueued.get(outcome.job().id());
                if (!decision.isSelected()) {
                    // a claim waits for a minimum run to end; a patience in proportion to the run opens with it
                    Long revisit = outcome.revisitAt() == null ? null : VirtualTime.seconds(outcome.revisitAt());
                    if (revisit != null && !revisit.equals(scheduled.put(queued.id(), revisit))) {
                        revisits.add(new Revisit(revisit, pending.get(queued).rank(), queued));
                    }
                    continue;
                }
                ReplayJob job = pending.remove(queued);
                severalInstances.remove(queued);
                Attempts before = attempts.get(job.id());
                history.started(job, now);
                if (before == null) {
                    progress.started(++started, jobs.size());
                }
                plans.waiting(outcome.job().request().preferences().entries(), -1);
                EntryVerdict selected = decision.selected().orElseThrow();
                PreferenceEntry entry = outcome.job().request().preferences().get(selected.index());
                double charge = TeamShare.charge(entry.instanceCount() * fleet.acceleratorsPerInstance(
                        entry.instanceType()), outcome.job().expectedRuntime(), rules.shareHalfLife());
                ledger.take(job.team(), entry, charge);
                long restart = before == null ? 0 : lending.restartOverheadSeconds();
                double left = before == null ? 1 : 1 - before.done;
                long end = now + restart + (long) Math.ceil(left * job.runSeconds(entry.instanceType()) - 1e-9);
                var run = new Running(end, job.rank(), now, job, job.team(), entry, charge, selected.index(),
                        decision.borrowed(), queued.request().preemptible(), -1, end, restart);
                running.add(run);
                runningOf.put(job.id(), run);
                if (decision.borrowed()) {
                    borrowedStarts++;
                }
                Long claimed = claimedAt.remove(job.id());
                if (claimed != null) {
                    reclaimDelays.add(now - claimed);
                    if (!awaitedBounded.remove(job.id())) {
                        preemptibleDelays.add(now - claimed);
                    }
                }
            }
            for (QueuePass.Preemption<String> preemption : result.preemptions()) {
                Running victim = runningOf.get(preemption.victim().job());
                if (victim == null || victim.preemptedAt() >= 0) {
                    throw new IllegalStateException("the pass preempted " + preemption.victim().job()
                            + ", which is not running or is stopping already");
                }
                running.remove(victim);
                Running stopping = victim.stoppedAt(now, grace);
                running.add(stopping);
                runningOf.put(victim.job().id(), stopping);
                QueuePass.Claim claim = result.claims().get(preemption.forJob());
                if (claim != null && claim.withinTeam()) {
                    gaveWayTo.add(victim.job().id());
                }
                preemptions++;
            }
            if (observer != null) {
                observer.stepped(new Step(now, rules, ledger, history, java.util.Collections.unmodifiableMap(pending),
                        java.util.Collections.unmodifiableCollection(running), jobs.subList(firstSubmitted, next),
                        sharing ? lending.policy() : SharingPolicy.OFF,
                        sharing ? placements(running, attempts, lending) : List.of()));
            }
        }
        if (!ledger.idle()) {
            throw new IllegalStateException("instances still in use after the last job ended");
        }
        runs.sort(Comparator.comparingLong(JobRun::firstStartSeconds).thenComparingInt(r -> r.job().rank()));
        return new PolicyRun(policy, runs, List.copyOf(pending.values()), evaluations, events,
                plans.utilizationWhileWaiting(), new PolicyRun.Reclaims(preemptions, reclaimDelays,
                borrowedStarts, preemptibleDelays));
    }

    /** The running placements as the scheduler's snapshot holds them. */
    private static List<RunningPlacement> placements(java.util.Collection<Running> running,
                                                     Map<String, Attempts> attempts, Lending lending) {
        var placements = new ArrayList<RunningPlacement>(running.size());
        for (Running run : running) {
            if (run.job() == null) {
                placements.add(new RunningPlacement("holding-" + (-run.rank()), run.team(), run.entry().offering(),
                        run.entry().instanceCount(), 0, VirtualTime.at(run.startSeconds()), false, false, null, 0,
                        null));
                continue;
            }
            Attempts before = attempts.get(run.job().id());
            placements.add(new RunningPlacement(run.job().id(), run.team(), run.entry().offering(),
                    run.entry().instanceCount(), run.job().priority(), VirtualTime.at(run.startSeconds()),
                    run.borrowed(), run.preemptible(), lending.maxRuntime(run.job()),
                    before == null ? 0 : before.stopped.size(),
                    run.preemptedAt() < 0 ? null : VirtualTime.at(run.preemptedAt())));
        }
        return placements;
    }

    /**
     * What the queue expects of the job's run at {@code now}, knowing what {@code knowledge} says; the maximum run
     * time the job declares, when it does, bounds it as the service's {@code ExpectedRuns} does.
     */
    private Duration expected(Policy.Knowledge knowledge, ReplayJob job, Duration declared, RuntimeHistory history,
                              long now) {
        String first = job.choices().get(0).instanceType();
        Duration maxRuntime = declared != null ? declared : job.maxRuntime();
        return switch (knowledge) {
            case HISTORY -> history.expected(job, maxRuntime, now, true);
            case TYPICAL -> history.expected(job, maxRuntime, now, false);
            case HINTS -> history.expected(job, job.maxRuntimeHint(), now, true);
            case ORACLE -> Duration.ofSeconds(job.runSeconds(first));
        };
    }

    /** Schedules the job's next evaluation for when its patience next opens an entry, if it will. */
    private static void revisit(QueuePass pass, PriorityQueue<Revisit> revisits, QueuedRequest<String> job, int rank,
                                Capacity capacity, Instant now) {
        Instant opens = pass.revisitAt(job, capacity, now);
        if (opens != null) {
            revisits.add(new Revisit(VirtualTime.seconds(opens), rank, job));
        }
    }

    /**
     * The concerned jobs that some entry could fit (or, when sharing, claim), and every holder and long waiter of
     * several instances (the pass holds instances for them even when they do not fit); see the class comment.
     */
    private static List<QueuedRequest<String>> couldFit(Set<QueuedRequest<String>> concerned,
                                                        Set<QueuedRequest<String>> holders,
                                                        Set<QueuedRequest<String>> severalInstances, Capacity capacity,
                                                        boolean sharing, boolean shorterFirst) {
        // without sharing, no free instance means no job can fit; with it, a job may still claim borrowed ones
        boolean anyFree = sharing || FreeCapacity.total(capacity) > 0;
        var candidates = new ArrayList<QueuedRequest<String>>();
        for (QueuedRequest<String> job : concerned) {
            if (holders.contains(job) || severalInstances.contains(job)
                    || anyFree && FreeCapacity.anyEntryCouldFit(job.request(), capacity)
                    || shorterFirst && capacity.teamHoldsPreemptible(job.request())) {
                candidates.add(job);
            }
        }
        return candidates;
    }
}
