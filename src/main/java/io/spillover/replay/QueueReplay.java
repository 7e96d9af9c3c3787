package io.spillover.replay;

import io.spillover.placement.Capacity;
import io.spillover.placement.Decision;
import io.spillover.placement.EntryVerdict;
import io.spillover.placement.Placement;
import io.spillover.placement.PreferenceEntry;
import io.spillover.placement.QueuePass;
import io.spillover.placement.QueuePolicy;
import io.spillover.placement.QueuedRequest;
import io.spillover.placement.TeamShare;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
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
 */
public final class QueueReplay {

    /** A run going on: a job of the replay's, or (job null) a {@link Holding} from before it began. */
    record Running(long endSeconds, int rank, long startSeconds, ReplayJob job, String team,
                           PreferenceEntry entry, double charge) {
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
     * @param submitted the jobs submitted at this step
     */
    record Step(long now, QueuePolicy rules, Ledger ledger, RuntimeHistory history,
                java.util.Map<QueuedRequest<String>, ReplayJob> pending, java.util.Collection<Running> running,
                List<ReplayJob> submitted) {
    }

    /** Told of every step once its starts are made; reads only. */
    interface Observer {
        void stepped(Step step);
    }

    PolicyRun run(Policy policy, List<ReplayJob> jobs, List<Holding> holdings, Progress progress, Observer observer) {
        if (policy instanceof Policy.Polling) {
            throw new IllegalArgumentException("polling has no server-side queue: see PollingReplay");
        }
        QueuePolicy rules = policy instanceof Policy.Queued queued ? queued.queue() : QueuePolicy.FIRST_FIT;
        Policy.Knowledge knowledge = policy instanceof Policy.Queued queued ? queued.knowledge()
                : Policy.Knowledge.HISTORY;
        var pass = new QueuePass(placement, rules);
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
        var runs = new ArrayList<JobRun>(jobs.size());
        var history = new RuntimeHistory(HISTORY);
        long evaluations = 0;
        long events = 0;
        int next = 0;
        for (Holding holding : holdings) {
            ledger.hold(holding.team(), holding.entry());
            running.add(new Running(holding.untilSeconds(), -1 - running.size(), 0, null, holding.team(),
                    holding.entry(), 0));
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
            while (!running.isEmpty() && running.peek().endSeconds() == now) {
                Running ended = running.poll();
                ledger.release(ended.team(), ended.entry(), VirtualTime.at(ended.startSeconds()), at,
                        rules.shareHalfLife(), ended.charge());
                if (ended.job() != null) {
                    history.ended(ended.job(), Duration.ofSeconds(now - ended.startSeconds()));
                }
                released = true;
                events++;
            }
            var concerned = new LinkedHashSet<QueuedRequest<String>>();
            int firstSubmitted = next;
            while (next < jobs.size() && jobs.get(next).submitSeconds() == now) {
                ReplayJob job = jobs.get(next++);
                history.submitted(job);
                QueuedRequest<String> queued = job.queued(job.preferences(policy));
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
                if (pending.containsKey(due.job())) {
                    concerned.add(due.job());
                    revisit(pass, revisits, due.job(), due.rank(), ledger.snapshot(), at);
                    events++;
                }
            }
            if (exact || released) {
                concerned.addAll(pending.keySet());
            }
            concerned.addAll(holders);
            if (rules.reserveAfter() != null) {
                severalInstances.stream().filter(j -> !j.submittedAt().plus(rules.reserveAfter()).isAfter(at))
                        .forEach(concerned::add);
            }
            Capacity snapshot = ledger.snapshot();
            List<QueuedRequest<String>> considered = exact ? List.copyOf(concerned)
                    : couldFit(concerned, holders, severalInstances, snapshot);
            // the queue holds each request as submitted; the pass gets it with the run expected at this step
            var asQueued = new HashMap<String, QueuedRequest<String>>();
            var candidates = new ArrayList<QueuedRequest<String>>(considered.size());
            for (QueuedRequest<String> job : considered) {
                asQueued.put(job.id(), job);
                candidates.add(new QueuedRequest<>(job.id(), job.request(), job.priority(), job.submittedAt(),
                        job.fallbackAfter(), expected(knowledge, pending.get(job), history, now)));
            }
            QueuePass.Result<String> result = pass.decide(candidates, snapshot,
                    ledger.shares(at, rules.shareHalfLife()), at);
            evaluations += candidates.size();
            holders = new HashSet<>();
            for (String holder : result.holds().values()) {
                holders.add(asQueued.get(holder));
            }
            for (QueuePass.Outcome<String> outcome : result.outcomes()) {
                Decision decision = outcome.decision();
                if (decision.isSelected()) {
                    QueuedRequest<String> queued = asQueued.get(outcome.job().id());
                    ReplayJob job = pending.remove(queued);
                    severalInstances.remove(queued);
                    history.started(job, now);
                    plans.waiting(outcome.job().request().preferences().entries(), -1);
                    EntryVerdict selected = decision.selected().orElseThrow();
                    PreferenceEntry entry = outcome.job().request().preferences().get(selected.index());
                    double charge = TeamShare.charge(entry.instanceCount() * fleet.acceleratorsPerInstance(
                            entry.instanceType()), outcome.job().expectedRuntime(), rules.shareHalfLife());
                    ledger.take(job.team(), entry, charge);
                    long end = now + job.runSeconds(entry.instanceType());
                    running.add(new Running(end, job.rank(), now, job, job.team(), entry, charge));
                    runs.add(new JobRun(job, now, end, selected.index(), entry));
                    progress.started(runs.size(), jobs.size());
                }
            }
            if (observer != null) {
                observer.stepped(new Step(now, rules, ledger, history, java.util.Collections.unmodifiableMap(pending),
                        java.util.Collections.unmodifiableCollection(running), jobs.subList(firstSubmitted, next)));
            }
        }
        if (!ledger.idle()) {
            throw new IllegalStateException("instances still in use after the last job ended");
        }
        return new PolicyRun(policy, runs, List.copyOf(pending.values()), evaluations, events,
                plans.utilizationWhileWaiting());
    }

    /** What the queue expects of the job's run at {@code now}, knowing what {@code knowledge} says. */
    private Duration expected(Policy.Knowledge knowledge, ReplayJob job, RuntimeHistory history, long now) {
        String first = job.choices().get(0).instanceType();
        return switch (knowledge) {
            case HISTORY -> history.expected(job, job.maxRuntime(), now, true);
            case TYPICAL -> history.expected(job, job.maxRuntime(), now, false);
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
     * The concerned jobs that some entry could fit, and every holder and long waiter of several instances (the
     * pass holds instances for them even when they do not fit); see the class comment.
     */
    private static List<QueuedRequest<String>> couldFit(Set<QueuedRequest<String>> concerned,
                                                        Set<QueuedRequest<String>> holders,
                                                        Set<QueuedRequest<String>> severalInstances, Capacity capacity) {
        boolean anyFree = FreeCapacity.total(capacity) > 0;
        var candidates = new ArrayList<QueuedRequest<String>>();
        for (QueuedRequest<String> job : concerned) {
            if (holders.contains(job) || severalInstances.contains(job)
                    || anyFree && FreeCapacity.anyEntryCouldFit(job.request(), capacity)) {
                candidates.add(job);
            }
        }
        return candidates;
    }
}
