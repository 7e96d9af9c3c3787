package io.spillover.bench.replay;

import io.spillover.placement.Capacity;
import io.spillover.placement.Decision;
import io.spillover.placement.EntryVerdict;
import io.spillover.placement.Placement;
import io.spillover.placement.PreferenceEntry;
import io.spillover.placement.QueuePass;
import io.spillover.placement.QueuedRequest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.TreeMap;

/**
 * Policies (a) and (b): jobs wait in Spillover's queue, served as the service serves it. At every virtual
 * second where something happens, job ends give their instances back first, then arrivals join the queue,
 * then one scheduling step runs: snapshot the {@link Ledger}, let {@link QueuePass} decide in
 * {@link QueuedRequest#queueOrder()}, and start what it selected.
 *
 * <p>Like the service, a step after arrivals only evaluates the new jobs (SUBMITTED), and a step after a
 * release evaluates the queue (CAPACITY_RELEASED; here the whole queue, a superset of the service's scope).
 * Older jobs need no evaluation after arrivals alone: they did not fit at the last step and capacity only
 * shrank since. In the default mode the pass is fed only the jobs that pass {@link FreeCapacity}'s
 * necessary condition, stopping once no instance is free; {@code exact} mode hands QueuePass the whole
 * queue at every step (slow; the tests compare both).
 */
final class QueueReplay {

    private record Running(long endSeconds, int rank, String team, PreferenceEntry entry) {
    }

    private final Fleet fleet;
    private final QueuePass pass;
    private final boolean exact;

    QueueReplay(Fleet fleet, boolean exact) {
        this.fleet = fleet;
        this.pass = new QueuePass(new Placement(fleet.catalog()));
        this.exact = exact;
    }

    /** @param jobs in submission order */
    PolicyRun run(Policy policy, List<ReplayJob> jobs) {
        if (policy instanceof Policy.Polling) {
            throw new IllegalArgumentException("polling has no server-side queue: see PollingReplay");
        }
        var ledger = new Ledger(fleet, jobs.stream().map(ReplayJob::team).distinct().toList());
        var pending = new TreeMap<QueuedRequest<String>, ReplayJob>(QueuedRequest.queueOrder());
        var running = new PriorityQueue<Running>(Comparator.comparingLong(Running::endSeconds)
                .thenComparingInt(Running::rank));
        var runs = new ArrayList<JobRun>(jobs.size());
        long evaluations = 0;
        long events = 0;
        int next = 0;
        while (next < jobs.size() || !running.isEmpty()) {
            long now = Math.min(next < jobs.size() ? jobs.get(next).trace().submitSeconds() : Long.MAX_VALUE,
                    running.isEmpty() ? Long.MAX_VALUE : running.peek().endSeconds());
            boolean released = false;
            while (!running.isEmpty() && running.peek().endSeconds() == now) {
                Running ended = running.poll();
                ledger.release(ended.team(), ended.entry());
                released = true;
                events++;
            }
            var arrived = new ArrayList<QueuedRequest<String>>();
            while (next < jobs.size() && jobs.get(next).trace().submitSeconds() == now) {
                ReplayJob job = jobs.get(next++);
                QueuedRequest<String> queued = job.queued(job.preferences(policy));
                pending.put(queued, job);
                arrived.add(queued);
                events++;
            }
            List<QueuedRequest<String>> candidates = exact || released ? List.copyOf(pending.keySet()) : arrived;
            Capacity snapshot = ledger.snapshot();
            Instant at = VirtualTime.at(now);
            List<QueuePass.Outcome<String>> outcomes = exact ? pass.decide(candidates, snapshot, at)
                    : decideCandidates(candidates, snapshot, at);
            evaluations += exact ? candidates.size() : outcomes.size();
            for (QueuePass.Outcome<String> outcome : outcomes) {
                Decision decision = outcome.decision();
                if (decision.isSelected()) {
                    ReplayJob job = pending.remove(outcome.job());
                    EntryVerdict selected = decision.selected().orElseThrow();
                    PreferenceEntry entry = outcome.job().request().preferences().get(selected.index());
                    ledger.take(job.team(), entry);
                    long end = now + fleet.runtimeSeconds(job.trace(), entry.instanceType());
                    running.add(new Running(end, job.rank(), job.team(), entry));
                    runs.add(new JobRun(job, now, end, selected.index(), entry));
                }
            }
        }
        if (!ledger.idle()) {
            throw new IllegalStateException("instances still in use after the last job ended");
        }
        return new PolicyRun(policy, runs, List.copyOf(pending.values()), evaluations, events);
    }

    /**
     * The decisions of one pass over the candidates, in queue order, against one working capacity; only the
     * jobs that could fit are handed to the core (see the class comment), each booked before the next.
     */
    private List<QueuePass.Outcome<String>> decideCandidates(List<QueuedRequest<String>> candidates,
                                                             Capacity capacity, Instant now) {
        var outcomes = new ArrayList<QueuePass.Outcome<String>>();
        int free = FreeCapacity.total(capacity);
        for (QueuedRequest<String> job : candidates) {
            if (free == 0) {
                break;
            }
            if (FreeCapacity.anyEntryCouldFit(job.request(), capacity)) {
                QueuePass.Outcome<String> outcome = pass.decide(List.of(job), capacity, now).get(0);
                outcomes.add(outcome);
                free -= outcome.decision().selected().map(EntryVerdict::instanceCount).orElse(0);
            }
        }
        return outcomes;
    }
}
