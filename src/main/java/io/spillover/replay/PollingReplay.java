package io.spillover.replay;

import io.spillover.placement.Capacity;
import io.spillover.placement.Decision;
import io.spillover.placement.Placement;
import io.spillover.placement.PlacementRequest;
import io.spillover.placement.PreferenceEntry;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;

/**
 * Policy (c): no server-side queue; each job is a client script that submits a single-type job, and on a
 * refusal sleeps and tries again, moving to its next choice after so many refusals. Try j of a job happens
 * at submit + j × interval and asks for choice (j / triesPerType) mod choices. A try is decided by the
 * placement core ({@link Placement#decide}) against the capacity of that moment; whoever tries first after
 * a release gets the instances. At one virtual second, job ends come first, then tries in submission order.
 *
 * <p>Replaying every try of thousands of scripts waiting for weeks would be hundreds of millions of events.
 * Between two releases capacity only shrinks, so a try that failed fails again until an instance of its type
 * is released; a script therefore sleeps until its next change of choice or until a release of the type it
 * is trying, whichever comes first, and the tries it sleeps through are counted as made. The
 * {@code everyTry} mode replays each try (slow); the tests check both give the same runs.
 */
final class PollingReplay {

    private static final class Script {
        final ReplayJob job;
        long nextTry = -1;
        int generation;
        boolean started;

        Script(ReplayJob job) {
            this.job = job;
        }
    }

    private record Try(long atSeconds, int rank, Script script, int generation, long index) {
    }

    private record Running(long endSeconds, int rank, String team, PreferenceEntry entry) {
    }

    private final Fleet fleet;
    private final Placement placement;
    private final boolean everyTry;

    PollingReplay(Fleet fleet, boolean everyTry) {
        this.fleet = fleet;
        this.placement = new Placement(fleet.catalog());
        this.everyTry = everyTry;
    }

    /** @param jobs in submission order */
    PolicyRun run(Policy.Polling policy, List<ReplayJob> jobs) {
        var ledger = new Ledger(fleet, jobs.stream().map(ReplayJob::team).distinct().toList());
        var plans = new PlanWatch(fleet);
        var tries = new PriorityQueue<Try>(Comparator.comparingLong(Try::atSeconds).thenComparingInt(Try::rank));
        var running = new PriorityQueue<Running>(Comparator.comparingLong(Running::endSeconds)
                .thenComparingInt(Running::rank));
        Map<String, Set<Script>> sleepingOn = new HashMap<>();
        var scripts = new ArrayList<Script>(jobs.size());
        var runs = new ArrayList<JobRun>(jobs.size());
        long evaluations = 0;
        long events = 0;
        int next = 0;
        while (next < jobs.size() || !running.isEmpty() || !tries.isEmpty()) {
            long now = Math.min(Math.min(next < jobs.size() ? jobs.get(next).submitSeconds() : Long.MAX_VALUE,
                    running.isEmpty() ? Long.MAX_VALUE : running.peek().endSeconds()),
                    tries.isEmpty() ? Long.MAX_VALUE : tries.peek().atSeconds());
            plans.advance(now, ledger.inUse());
            while (!running.isEmpty() && running.peek().endSeconds() == now) {
                Running ended = running.poll();
                ledger.release(ended.team(), ended.entry());
                events++;
                Set<Script> woken = sleepingOn.remove(ended.entry().instanceType());
                if (woken != null) {
                    for (Script script : woken) {
                        long index = Math.floorDiv(now - script.job.submitSeconds() + policy.intervalSeconds() - 1,
                                policy.intervalSeconds());
                        if (!script.started && index < script.nextTry) {
                            schedule(tries, script, index, policy);
                        }
                    }
                }
            }
            while (next < jobs.size() && jobs.get(next).submitSeconds() == now) {
                var script = new Script(jobs.get(next++));
                scripts.add(script);
                plans.waiting(script.job.choices(), 1);
                schedule(tries, script, 0, policy);
                events++;
            }
            Capacity snapshot = null;
            while (!tries.isEmpty() && tries.peek().atSeconds() == now) {
                Try attempt = tries.poll();
                Script script = attempt.script();
                if (attempt.generation() != script.generation || script.started) {
                    continue; // superseded by an earlier wake-up
                }
                events++;
                ReplayJob job = script.job;
                int choice = (int) ((attempt.index() / policy.triesPerType()) % job.choices().size());
                var request = new PlacementRequest(job.team(), job.kind(), job.only(choice));
                if (snapshot == null) {
                    snapshot = ledger.snapshot();
                }
                Decision decision = placement.decide(request, snapshot, VirtualTime.at(now));
                evaluations++;
                if (decision.isSelected()) {
                    placement.book(request, decision, snapshot);
                    PreferenceEntry entry = request.preferences().get(0);
                    ledger.take(job.team(), entry);
                    long end = now + job.runSeconds(entry.instanceType());
                    running.add(new Running(end, job.rank(), job.team(), entry));
                    runs.add(new JobRun(job, now, end, choice, entry));
                    script.started = true;
                    plans.waiting(job.choices(), -1);
                } else if (everyTry) {
                    schedule(tries, script, attempt.index() + 1, policy);
                } else {
                    sleep(script, attempt.index(), choice, policy, tries, sleepingOn);
                }
            }
        }
        if (!ledger.idle()) {
            throw new IllegalStateException("instances still in use after the last job ended");
        }
        return new PolicyRun(policy, runs, scripts.stream().filter(s -> !s.started).map(s -> s.job).toList(),
                evaluations, events, plans.utilizationWhileWaiting());
    }

    /** After a refused try: wake at the next change of choice, or earlier when the tried type is released. */
    private static void sleep(Script script, long index, int choice, Policy.Polling policy, PriorityQueue<Try> tries,
                              Map<String, Set<Script>> sleepingOn) {
        int choices = script.job.choices().size();
        if (choices > 1) {
            schedule(tries, script, (index / policy.triesPerType() + 1) * policy.triesPerType(), policy);
        } else {
            script.nextTry = Long.MAX_VALUE;
            script.generation++;
        }
        sleepingOn.computeIfAbsent(script.job.choices().get(choice).instanceType(), t -> new LinkedHashSet<>())
                .add(script);
    }

    private static void schedule(PriorityQueue<Try> tries, Script script, long index, Policy.Polling policy) {
        script.nextTry = index;
        script.generation++;
        tries.add(new Try(script.job.submitSeconds() + index * policy.intervalSeconds(), script.job.rank(),
                script, script.generation, index));
    }
}
