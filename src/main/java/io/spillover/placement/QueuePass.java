package io.spillover.placement;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.function.IntFunction;
import java.util.stream.Collectors;

/**
 * Decides a queue of pending jobs in one pass against one working capacity, under a {@link QueuePolicy}:
 * each selection is booked before the next job is decided, so two jobs are never given the same instances.
 *
 * <ol>
 *   <li><b>Holds.</b> A job of several instances that has waited past {@link QueuePolicy#reserveAfter} goes
 *       first, oldest first; when it does not fit, the free instances of its best entry are held for it, so
 *       smaller jobs cannot keep taking them.</li>
 *   <li><b>Rounds.</b> With {@link QueuePolicy#precedence}, round {@code r} offers every waiting job its entries
 *       up to {@code r}: a job for whom an offering is an earlier entry gets it before a job for whom it is a
 *       fallback. Without, one round offers every entry.</li>
 *   <li><b>Turns.</b> In a round, teams take turns by fair-share standing (lowest first) when
 *       {@link QueuePolicy#fairShare} is on, else all jobs go by rank; within a team, jobs go by rank: priority,
 *       then with {@link QueuePolicy#shortestFirst} the highest response ratio, then queue order.</li>
 *   <li><b>Patience.</b> A job takes its on-demand entry {@code i} only after waiting its patience
 *       ({@link QueuedRequest#fallbackAfter}, else the policy's) once for each earlier entry worth waiting
 *       for; the outcome says when the next entry opens, so the caller can evaluate the job again then.</li>
 * </ol>
 *
 * A job that does not fit does not block smaller jobs behind it (best-effort FIFO), except in a strict-FIFO
 * team, where it holds back the team's later jobs.
 */
public final class QueuePass {

    private final Placement placement;
    private final QueuePolicy policy;

    public QueuePass(Placement placement) {
        this(placement, QueuePolicy.FIRST_FIT);
    }

    public QueuePass(Placement placement, QueuePolicy policy) {
        this.placement = placement;
        this.policy = policy;
    }

    public QueuePolicy policy() {
        return policy;
    }

    /**
     * One job's decision in the pass.
     *
     * @param revisitAt when a closed entry of a waiting job opens, so that it is worth evaluating again even if
     *                  no capacity frees; null when none will
     */
    public record Outcome<I extends Comparable<I>>(QueuedRequest<I> job, Decision decision, Instant revisitAt) {
    }

    /**
     * @param outcomes one per job, in queue order
     * @param booked   the jobs selected, in the order the pass booked them
     * @param holds    the offerings whose free instances are held, and for which job
     */
    public record Result<I extends Comparable<I>>(List<Outcome<I>> outcomes, List<QueuedRequest<I>> booked,
                                                  Map<OfferingKey, I> holds) {
    }

    /** A pass without fair-share usage: every team starts even. */
    public <I extends Comparable<I>> List<Outcome<I>> decide(List<QueuedRequest<I>> queue, Capacity capacity,
                                                             Instant now) {
        return decide(queue, capacity, Map.of(), now).outcomes();
    }

    /**
     * @param queue    the jobs to decide, in any order
     * @param capacity the working capacity; selections and holds are booked in it
     * @param shares   each team's weight and decayed usage; a team not named has weight 1 and no usage
     */
    public <I extends Comparable<I>> Result<I> decide(List<QueuedRequest<I>> queue, Capacity capacity,
                                                      Map<String, TeamShare> shares, Instant now) {
        return new Run<I>(queue, capacity, shares, now, true).decide();
    }

    /**
     * The same pass, selections, holds and revisits alike, without the reasons of the jobs left waiting: their
     * decisions are NOTHING_FITS with no verdicts. For callers that need only what starts (a forecast runs many
     * passes and reads no reason); wording every waiting job's verdicts is most of a long pass's work.
     */
    public <I extends Comparable<I>> Result<I> selections(List<QueuedRequest<I>> queue, Capacity capacity,
                                                          Map<String, TeamShare> shares, Instant now) {
        return new Run<I>(queue, capacity, shares, now, false).decide();
    }

    /** The state of one pass. */
    private final class Run<I extends Comparable<I>> {

        private final Comparator<QueuedRequest<I>> order = QueuedRequest.queueOrder();
        private final Capacity capacity;
        private final Map<String, TeamShare> shares;
        private final Instant now;
        private final List<QueuedRequest<I>> sorted;
        /**
         * Which job goes first where fair share does not decide: priority, then (shortest first) the response
         * ratio, then queue order; a strict-FIFO team keeps queue order among its own jobs.
         */
        private final Comparator<QueuedRequest<I>> rank;
        private final Map<String, Line> lines = new LinkedHashMap<>();
        private final Map<QueuedRequest<I>, Outcome<I>> decided = new HashMap<>();
        private final List<Outcome<I>> selections = new ArrayList<>();
        private final Map<OfferingKey, I> holds = new LinkedHashMap<>();
        /** The first booking of this pass on each offering, to explain to the jobs it left waiting. */
        private final Map<OfferingKey, Taken<I>> taken = new HashMap<>();
        /** How many entries of each job were tried and refused (refused entries stay refused: capacity only shrinks). */
        private final Map<QueuedRequest<I>, Integer> tried = new HashMap<>();

        /** Whether the jobs left waiting get their verdicts and reasons. */
        private final boolean worded;

        Run(List<QueuedRequest<I>> queue, Capacity capacity, Map<String, TeamShare> shares, Instant now,
            boolean worded) {
            this.worded = worded;
            this.capacity = capacity;
            this.shares = shares;
            this.now = now;
            this.sorted = queue.stream().sorted(order).toList();
            this.rank = policy.shortestFirst()
                    ? Comparator.<QueuedRequest<I>>comparingInt(QueuedRequest::priority).reversed()
                            .thenComparing(Comparator.comparingDouble(this::responseRatio).reversed())
                            .thenComparing(order)
                    : order;
            for (QueuedRequest<I> job : sorted) {
                lines.computeIfAbsent(job.request().team(), Line::new).jobs.add(job);
            }
            // a strict-FIFO team's jobs start in queue order whatever the rank says
            lines.values().stream().filter(line -> !line.strict()).forEach(line -> line.jobs.sort(rank));
        }

        Result<I> decide() {
            if (policy.reserveAfter() != null) {
                holdForLongWaiters();
            }
            int rounds = policy.precedence()
                    ? sorted.stream().mapToInt(j -> j.request().preferences().size()).max().orElse(0) : 1;
            for (int round = 0; round < rounds; round++) {
                playRound(policy.precedence() ? round : PreferenceList.MAX_ENTRIES - 1);
            }
            var outcomes = new ArrayList<Outcome<I>>(sorted.size());
            for (QueuedRequest<I> job : sorted) {
                Outcome<I> outcome = decided.get(job);
                outcomes.add(outcome != null && outcome.decision().isSelected() ? outcome : waitingOutcome(job, outcome));
            }
            return new Result<>(outcomes, List.copyOf(selections.stream().map(Outcome::job).toList()), holds);
        }

        /** (wait + expected run) / expected run now; a job of unknown length counts one mean life. */
        private double responseRatio(QueuedRequest<I> job) {
            double expected = job.expectedRuntime() != null ? job.expectedRuntime().toSeconds()
                    : TeamShare.meanLife(policy.shareHalfLife());
            double waited = Math.max(0, Duration.between(job.submittedAt(), now).toMillis() / 1000.0);
            return (waited + Math.max(1, expected)) / Math.max(1, expected);
        }

        /** Step 1: jobs of several instances past the age, oldest first, take what fits or hold what is free. */
        private void holdForLongWaiters() {
            List<QueuedRequest<I>> longWaiters = sorted.stream()
                    .filter(j -> minimumCount(j) > 1 && !j.submittedAt().plus(policy.reserveAfter()).isAfter(now))
                    .sorted(Comparator.comparing(QueuedRequest<I>::submittedAt).thenComparing(order))
                    .toList();
            for (QueuedRequest<I> job : longWaiters) {
                Line line = lines.get(job.request().team());
                if (line.strict() && line.firstWaiting() != job) {
                    continue; // a strict-FIFO team's later job waits behind its head, however old
                }
                if (tryEntries(job, job.request().preferences().size() - 1)) {
                    continue;
                }
                int best = bestEntry(job);
                if (best < 0) {
                    continue;
                }
                OfferingKey key = job.request().preferences().get(best).offering();
                if (capacity.holds(key)) {
                    continue;
                }
                Decision before = decision(job);
                int held = capacity.hold(key, job.request().preferences().get(best).instanceCount(),
                        "job " + job.id() + ", waiting since " + Placement.DATE_TIME.format(job.submittedAt()));
                holds.put(key, job.id());
                decided.put(job, new Outcome<>(job, holding(before, best, held), revisitAt(job, capacity, now)));
            }
        }

        /** Step 2 and 3: one round, teams taking turns; each turn is one job's try. */
        private void playRound(int round) {
            var turns = new PriorityQueue<Line>(Comparator.comparingDouble(Line::standing)
                    .thenComparing(Line::next, rank));
            for (Line line : lines.values()) {
                line.cursor = 0;
                if (line.advance()) {
                    turns.add(line);
                }
            }
            while (!turns.isEmpty()) {
                Line line = turns.poll();
                QueuedRequest<I> job = line.next();
                line.cursor++;
                boolean placed = tryEntries(job, round);
                if ((placed || !line.strict()) && line.advance()) {
                    turns.add(line);
                }
            }
        }

        /** Tries the job's entries not yet tried, up to {@code last}; books and records the first that fits. */
        private boolean tryEntries(QueuedRequest<I> job, int last) {
            PlacementRequest request = job.request();
            int from = tried.getOrDefault(job, 0);
            int to = Math.min(last, request.preferences().size() - 1);
            IntFunction<String> closed = patience(job, capacity, now);
            for (int i = from; i <= to; i++) {
                if (closed.apply(i) == null && placement.fits(request, i, capacity, now)) {
                    Decision decision = placement.decide(request, capacity, now, closed);
                    if (decision.selected().orElseThrow().index() != i) {
                        throw new IllegalStateException("entry " + i + " of job " + job.id() + " fits, but "
                                + decision.selected().orElseThrow().index() + " was selected");
                    }
                    placement.book(request, decision, capacity);
                    lines.get(request.team()).booked(job, request.preferences().get(i));
                    taken.putIfAbsent(request.preferences().get(i).offering(), new Taken<>(job.id(), request.team(), i));
                    Outcome<I> outcome = new Outcome<>(job, decision, null);
                    decided.put(job, outcome);
                    selections.add(outcome);
                    tried.put(job, request.preferences().size());
                    return true;
                }
            }
            tried.put(job, Math.max(from, to + 1));
            return false;
        }

        /** A holder keeps the outcome it got when it took its hold. */
        private Outcome<I> waitingOutcome(QueuedRequest<I> job, Outcome<I> holding) {
            return holding != null ? holding : waiting(job);
        }

        private Outcome<I> waiting(QueuedRequest<I> job) {
            if (!worded) {
                return new Outcome<>(job, new Decision(Decision.Outcome.NOTHING_FITS, List.of()),
                        revisitAt(job, capacity, now));
            }
            Line line = lines.get(job.request().team());
            QueuedRequest<I> head = line.firstWaiting();
            if (line.strict() && head != job) {
                return new Outcome<>(job, Decision.heldBack(job.request().preferences(),
                        "waiting behind job " + head.id() + " (strict FIFO)"), null);
            }
            return new Outcome<>(job, explained(job, decision(job)), revisitAt(job, capacity, now));
        }

        /**
         * A waiting job's verdicts, each entry whose instances another job of this pass took saying why that job
         * went first: the offering was its earlier entry (precedence), or its team is further below its share.
         */
        private Decision explained(QueuedRequest<I> job, Decision decision) {
            var verdicts = new ArrayList<EntryVerdict>(decision.entries().size());
            IntFunction<String> closed = patience(job, capacity, now);
            for (EntryVerdict verdict : decision.entries()) {
                PreferenceEntry entry = job.request().preferences().get(verdict.index());
                Taken<I> by = taken.get(entry.offering());
                String why = by == null || closed.apply(verdict.index()) != null
                        || capacity.offering(entry.offering()).map(o -> o.total() < entry.instanceCount()).orElse(true)
                        ? null : whyFirst(job, verdict.index(), by);
                verdicts.add(why == null ? verdict : new EntryVerdict(verdict.index(), verdict.instanceType(),
                        verdict.instanceCount(), verdict.region(), verdict.source(), false, verdict.reason() + "; " + why));
            }
            return new Decision(decision.outcome(), verdicts);
        }

        private String whyFirst(QueuedRequest<I> job, int index, Taken<I> by) {
            if (policy.precedence() && by.index() < index) {
                return "job " + by.job() + " went first: it is that job's entry " + by.index() + " and this job's entry "
                        + index;
            }
            String team = job.request().team();
            if (policy.fairShare() && !by.team().equals(team)
                    && lines.get(by.team()).standing() < lines.get(team).standing()) {
                return "team " + by.team() + " went first: team " + team + " is further above its fair share";
            }
            return null;
        }

        private Decision decision(QueuedRequest<I> job) {
            return placement.decide(job.request(), capacity, now, patience(job, capacity, now));
        }

        /** The job's verdicts with the held entry saying so. */
        private Decision holding(Decision decision, int entry, int held) {
            var verdicts = new ArrayList<>(decision.entries());
            EntryVerdict verdict = verdicts.get(entry);
            verdicts.set(entry, new EntryVerdict(verdict.index(), verdict.instanceType(), verdict.instanceCount(),
                    verdict.region(), verdict.source(), false, verdict.reason() + "; " + held
                    + " held for this job, which has waited past " + words(policy.reserveAfter())));
            return new Decision(decision.outcome(), verdicts);
        }

        /**
         * The entry to hold instances on: one the job could get with the whole offering and its quota, short
         * of the fewest instances; the earlier on a tie. -1 when none could ever hold it.
         */
        private int bestEntry(QueuedRequest<I> job) {
            PlacementRequest request = job.request();
            TeamState team = capacity.team(request.team()).orElse(null);
            int best = -1;
            int bestShort = Integer.MAX_VALUE;
            for (int i = 0; i < request.preferences().size(); i++) {
                PreferenceEntry entry = request.preferences().get(i);
                OfferingState offering = capacity.offering(entry.offering()).orElse(null);
                if (offering == null || offering.total() < entry.instanceCount() || offering.unavailableAt(now)
                        || team == null || team.limit(entry.instanceType()) < entry.instanceCount()
                        || patience(job, capacity, now).apply(i) != null) {
                    continue;
                }
                int shortBy = entry.instanceCount() - capacity.free(entry.offering());
                if (shortBy < bestShort) {
                    best = i;
                    bestShort = shortBy;
                }
            }
            return best;
        }

        /** One team's jobs in queue order, and where this round has got to. */
        private final class Line {

            final String team;
            final List<QueuedRequest<I>> jobs = new ArrayList<>();
            int cursor;
            private int head;
            private double charged;

            Line(String team) {
                this.team = team;
            }

            /** Moves the cursor past jobs already placed; whether a job is left to try this round. */
            boolean advance() {
                while (cursor < jobs.size() && selectedAlready(jobs.get(cursor))) {
                    cursor++;
                }
                return cursor < jobs.size();
            }

            QueuedRequest<I> next() {
                return jobs.get(cursor);
            }

            private boolean selectedAlready(QueuedRequest<I> job) {
                Outcome<I> outcome = decided.get(job);
                return outcome != null && outcome.decision().isSelected();
            }

            /** The team's first job not selected yet; jobs before it are all selected, so the search resumes there. */
            QueuedRequest<I> firstWaiting() {
                while (head < jobs.size() && selectedAlready(jobs.get(head))) {
                    head++;
                }
                return head < jobs.size() ? jobs.get(head) : null;
            }

            boolean strict() {
                return capacity.team(team).map(TeamState::strictFifo).orElse(false);
            }

            /** A selection of this pass is charged to the team at once, so its next turn weighs it. */
            void booked(QueuedRequest<I> job, PreferenceEntry entry) {
                charged += TeamShare.charge(entry.instanceCount() * placement.shareUnits(entry.instanceType()),
                        job.expectedRuntime(), policy.shareHalfLife());
            }

            /** Decayed usage and charges, this pass's included, per unit of weight; 0 when fair share is off. */
            double standing() {
                if (!policy.fairShare()) {
                    return 0;
                }
                TeamShare share = shares.getOrDefault(team, TeamShare.NEW_TEAM);
                return (share.usage() + charged) / share.weight();
            }
        }
    }

    /** Why an entry is closed by the job's patience at {@code now}, or null when it is open. */
    private IntFunction<String> patience(QueuedRequest<?> job, Capacity capacity, Instant now) {
        Duration patience = patienceOf(job);
        return i -> {
            Instant opens = opensAt(job, capacity, patience, i, now);
            if (opens == null || !opens.isAfter(now)) {
                return null;
            }
            List<Integer> waitedFor = worthWaitingFor(job, capacity, i, now);
            return "waiting " + words(Duration.between(now, opens)) + " more for "
                    + (waitedFor.size() == 1 ? "entry " + waitedFor.get(0)
                    : "entries " + waitedFor.stream().map(String::valueOf).collect(Collectors.joining(", ")))
                    + " before taking entry " + i + " (patience " + words(patience) + " per entry)";
        };
    }

    /**
     * When the job's entry may be taken: its patience once for every earlier entry worth waiting for after
     * submission; null for at once. Entry 0 and plan entries (paid for whether used or not) are never held
     * back, nor is an entry whose earlier entries are none worth waiting for.
     */
    private static Instant opensAt(QueuedRequest<?> job, Capacity capacity, Duration patience, int index, Instant now) {
        PreferenceEntry entry = job.request().preferences().get(index);
        if (index == 0 || patience.isZero() || entry.trainingPlan() != null) {
            return null;
        }
        int steps = worthWaitingFor(job, capacity, index, now).size();
        return steps == 0 ? null : job.submittedAt().plus(patience.multipliedBy(steps));
    }

    /**
     * The entries before {@code index} that could fit once instances free: their offering has enough instances
     * in all, is not marked unavailable (the cloud just said no), their plan is active and the team's quota
     * allows the count. Waiting for any other is waiting for nothing.
     */
    private static List<Integer> worthWaitingFor(QueuedRequest<?> job, Capacity capacity, int index, Instant now) {
        var worth = new ArrayList<Integer>(index);
        TeamState team = capacity.team(job.request().team()).orElse(null);
        for (int i = 0; i < index; i++) {
            PreferenceEntry entry = job.request().preferences().get(i);
            OfferingState offering = capacity.offering(entry.offering()).orElse(null);
            boolean planActive = entry.trainingPlan() == null || capacity.plan(entry.trainingPlan())
                    .filter(p -> p.status() == PlanStatus.ACTIVE && p.visibleTo(job.request().team())).isPresent();
            if (offering != null && offering.total() >= entry.instanceCount() && !offering.unavailableAt(now)
                    && planActive && team != null && team.limit(entry.instanceType()) >= entry.instanceCount()) {
                worth.add(i);
            }
        }
        return worth;
    }

    /**
     * When the next of the job's entries that its patience closes at {@code now} opens, or null when none is
     * closed: a waiting job is worth evaluating again then, even if no capacity frees.
     */
    public Instant revisitAt(QueuedRequest<?> job, Capacity capacity, Instant now) {
        Duration patience = patienceOf(job);
        Instant earliest = null;
        for (int i = 1; i < job.request().preferences().size(); i++) {
            Instant opens = opensAt(job, capacity, patience, i, now);
            if (opens != null && opens.isAfter(now) && (earliest == null || opens.isBefore(earliest))) {
                earliest = opens;
            }
        }
        return earliest;
    }

    private Duration patienceOf(QueuedRequest<?> job) {
        return job.fallbackAfter() != null ? job.fallbackAfter() : policy.fallbackAfter();
    }

    /** Who took an offering first in a pass, and as which of its entries. */
    private record Taken<J>(J job, String team, int index) {
    }

    private static int minimumCount(QueuedRequest<?> job) {
        return job.request().preferences().entries().stream().mapToInt(PreferenceEntry::instanceCount).min()
                .orElse(0);
    }

    /** A duration as a person says it: 45 s, 4 min, 2 h 30 min, 3 d. */
    public static String words(Duration duration) {
        long seconds = Math.max(0, (duration.toMillis() + 999) / 1000);
        if (seconds < 60) {
            return seconds + " s";
        }
        long minutes = (seconds + 59) / 60;
        if (minutes < 60) {
            return minutes + " min";
        }
        if (minutes < 48 * 60) {
            return minutes / 60 + " h" + (minutes % 60 == 0 ? "" : " " + minutes % 60 + " min");
        }
        return minutes / (24 * 60) + " d";
    }
}
