package io.spillover.placement;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.function.IntFunction;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * Decides a queue of pending jobs in one pass against one working capacity, under a {@link QueuePolicy} and a
 * {@link SharingPolicy}: each selection is booked before the next job is decided, so two jobs are never given the
 * same instances.
 *
 * <ol>
 *   <li><b>Holds.</b> A job of several instances that has waited past {@link QueuePolicy#reserveAfter} (and, with
 *       {@link QueuePolicy#holdAfterRun}, as long as its expected run) goes first, oldest first; when it does not
 *       fit, the free instances of its best entry are held for it, so smaller jobs cannot keep taking them.</li>
 *   <li><b>Rounds within the guarantee.</b> With {@link QueuePolicy#precedence}, round {@code r} offers every
 *       waiting job its entries up to {@code r}: a job for whom an offering is an earlier entry gets it before a job
 *       for whom it is a fallback, until the latter's response ratio reaches {@link QueuePolicy#precedenceLapse}
 *       (it has waited as long as its expected run): from then on every round offers it all its entries. Without
 *       precedence, one round offers every entry. Every job is held to its team's guarantee here: no one borrows
 *       before every job that fits within its guarantee has its turn.</li>
 *   <li><b>Turns.</b> In a round, teams take turns by fair-share standing (lowest first) when
 *       {@link QueuePolicy#fairShare} is on, else all jobs go by rank: priority, then with
 *       {@link QueuePolicy#shortestFirst} the highest response ratio, then queue order. Within a team, jobs go by
 *       the same rank, except that a job that gave way to a teammate ({@link QueuedRequest#gaveWay}) goes before the
 *       team's other jobs of its priority: it takes its team's next turn, the turn the team would have had without
 *       it, so no other team's job waits for it.</li>
 *   <li><b>Patience.</b> A job takes its on-demand entry {@code i} only after waiting its patience
 *       ({@link QueuedRequest#fallbackAfter}, else the policy's) once for each earlier entry worth waiting
 *       for; the outcome says when the next entry opens, so the caller can evaluate the job again then.</li>
 *   <li><b>Claims and reclaims</b> (sharing on). Each job still waiting, best rank first, whose team is below its
 *       guarantee for an entry, <em>claims</em> that entry's offering when its free instances and those that
 *       borrowers hold there ({@link Capacity#reclaimable}) would make the entry fit: the free ones are held for it,
 *       and when borrowers' instances are needed too, the pass decides which running placements to preempt, as
 *       Kueue reclaims within a cohort: only placements of teams above their guarantee, of preemptible jobs; those
 *       past their minimum run ({@link SharingPolicy#preemptExempt}) before those within it, and within each, borrowed
 *       placements first, then the lowest priority, then the most recently started (the least work lost); never more
 *       than the claiming job needs, and none while instances already being stopped cover it. If preemptible
 *       placements cannot cover the need now, none is preempted: the job waits for bounded borrowers to end (within
 *       the borrow horizon), and the pass after that preempts what is left to free. A claim holds
 *       instances in this pass only; the caller includes the claiming jobs ({@link Result#claims}) in every later
 *       pass, as it does holders, so that the hold stands until they start, and the placements being stopped for a
 *       claim stay tied to it ({@link Claim#comingBack}): what comes back for one claim goes to it, not to another
 *       claim of the same offering. A job claims one entry (its first that
 *       could fit so); with {@link SharingPolicy.WhenCanBorrow#BORROW} a job that could borrow an earlier entry
 *       borrows it instead.</li>
 *   <li><b>Borrowing rounds</b> (sharing on). The rounds again, for the jobs still waiting that do not claim, each
 *       entry fitting within the guarantee or by borrowing ({@link Placement}): borrowing takes only capacity that is
 *       free and not held, so never what a job of a team below its guarantee claimed. With
 *       {@link SharingPolicy.WhenCanBorrow#BORROW}, a job that could borrow an earlier entry does not take a later
 *       one within its guarantee in the first rounds; it borrows here, or takes the later entry here if the earlier
 *       one was claimed meanwhile. With {@link SharingPolicy.WhenCanBorrow#TRY_NEXT_ENTRY} a job borrows only when no
 *       entry fits within its guarantee.</li>
 *   <li><b>Shorter first within a team</b> (with {@link SharingPolicy#shorterFirst}; off by default). Each job still
 *       waiting that claims nothing, best rank first, claims its first entry whose offering its own team's longer
 *       preemptible jobs hold: the fewest of them (placed within the guarantee, of no higher priority, past their
 *       minimum run, that may still run the policy's ratio times the job's maximum run time) are preempted, so that
 *       the entry fits within the team's guarantee once they are back; a job preempted before never gives way. The
 *       claim carries over as a lender's does, so a stopped teammate, requeued at its place, cannot take back what it
 *       gave way for; after that it goes before its team's other jobs of its priority (step 3). No other team gives
 *       anything.</li>
 * </ol>
 *
 * A job that does not fit does not block smaller jobs behind it (best-effort FIFO), except in a strict-FIFO
 * team, where it holds back the team's later jobs (and only the team's first waiting job claims).
 *
 * <p><b>What a lender is promised.</b> A guarantee is a claim on what borrowers hold, not on what other teams hold
 * within their own guarantees: where admins give out more guarantees than the fleet has, a team below its guarantee
 * may still wait for other teams' jobs within theirs. For capacity that borrowers hold, a job that fits within its
 * team's guarantee waits at most the borrow horizon (a bounded borrower ends by then) or
 * {@link SharingPolicy#reclaimBound} (a preemptible borrower is stopped at once, with its grace), since no
 * one borrows what it claims meanwhile. A preempted job is requeued by the caller at its queue position; it cannot
 * take back what was reclaimed from it, because it borrows only in the borrowing rounds, after every job within its
 * guarantee and every claim.
 */
public final class QueuePass {

    private final Placement placement;
    private final QueuePolicy policy;
    private final SharingPolicy sharing;

    public QueuePass(Placement placement) {
        this(placement, QueuePolicy.FIRST_FIT);
    }

    /** A pass with guarantees as hard limits: {@link SharingPolicy#OFF}. */
    public QueuePass(Placement placement, QueuePolicy policy) {
        this(placement, policy, SharingPolicy.OFF);
    }

    public QueuePass(Placement placement, QueuePolicy policy, SharingPolicy sharing) {
        this.placement = placement;
        this.policy = policy;
        this.sharing = sharing;
    }

    public QueuePolicy policy() {
        return policy;
    }

    public SharingPolicy sharing() {
        return sharing;
    }

    /**
     * One job's decision in the pass.
     *
     * @param revisitAt when a closed entry of a waiting job opens, so that it is worth evaluating again even if no
     *                  capacity frees; null when none will
     */
    public record Outcome<I extends Comparable<I>>(QueuedRequest<I> job, Decision decision, Instant revisitAt) {
    }

    /**
     * What a waiting job of a team below its guarantee claims: one entry, whose free instances are held for it and
     * whose borrowed instances come back to it.
     *
     * @param entry      the entry claimed, by its index in the job's list
     * @param instances  what the entry needs
     * @param held       free instances held for the job in this pass
     * @param reclaiming instances on their way back: placements stopping since an earlier pass, and those this pass
     *                   preempts ({@link Result#preemptions})
     * @param awaited    instances that borrowers hold and that no preemption takes back yet: bounded borrowers that
     *                   end by themselves, and preemptible ones stopped once those have ended
     * @param comingBack the placements ({@link RunningPlacement#job}) whose instances make up {@code reclaiming}: the
     *                   next pass ties them to this claim, so that what comes back for it goes to it and to no other
     *                   claim of the offering
     * @param withinTeam whether the placements coming back are the job's own team's, giving way to a shorter job
     *                   ({@link SharingPolicy#shorterFirst}): not a lender's claim on borrowers
     */
    public record Claim(int entry, OfferingKey offering, int instances, int held, int reclaiming, int awaited,
                        List<String> comingBack, boolean withinTeam) {

        public Claim {
            comingBack = List.copyOf(comingBack);
        }

        /** A lender's claim on what borrowers hold. */
        public Claim(int entry, OfferingKey offering, int instances, int held, int reclaiming, int awaited,
                     List<String> comingBack) {
            this(entry, offering, instances, held, reclaiming, awaited, comingBack, false);
        }
    }

    /**
     * A running placement to stop for a waiting job: the caller signals it (SIGTERM), stops it after the
     * {@link SharingPolicy#grace}, and requeues the job at its queue position to resume from its checkpoint. No
     * preemption ends a job: the caller hands a job preempted as often as its platform allows to later passes as not
     * preemptible ({@link RunningPlacement#preemptible}, {@link PlacementRequest#preemptible}), so it is never
     * preempted again and borrows only within the {@link SharingPolicy#borrowHorizon}.
     *
     * @param reason in words, for the preempted job's history and the audit
     */
    public record Preemption<I extends Comparable<I>>(RunningPlacement victim, I forJob, String forTeam,
                                                      String reason) {
    }

    /**
     * @param outcomes    one per job, in queue order
     * @param booked      the jobs selected, in the order the pass booked them
     * @param holds       the offerings whose free instances are held for long waiters, and for which job
     * @param claims      the waiting jobs that claim instances as their team's guarantee, with what they claim; the
     *                    caller includes them in every later pass until they start
     * @param preemptions the running placements to stop, each for the claiming job it makes room for
     */
    public record Result<I extends Comparable<I>>(List<Outcome<I>> outcomes, List<QueuedRequest<I>> booked,
                                                  Map<OfferingKey, I> holds, Map<I, Claim> claims,
                                                  List<Preemption<I>> preemptions) {

        public Result {
            claims = Collections.unmodifiableMap(new LinkedHashMap<>(claims));
            preemptions = List.copyOf(preemptions);
        }
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
        return decide(queue, capacity, shares, now, Map.of());
    }

    /**
     * @param claimed the claims of the caller's previous pass ({@link Result#claims}): a job that claimed instances
     *                goes first on its claimed entry, before every other job, and claims first again, so that what
     *                was reclaimed for it goes to it and not to a job that came later. The caller includes these jobs
     *                in the queue, as it does holders
     */
    public <I extends Comparable<I>> Result<I> decide(List<QueuedRequest<I>> queue, Capacity capacity,
                                                      Map<String, TeamShare> shares, Instant now, Map<I, Claim> claimed) {
        return new Run<I>(queue, capacity, shares, now, true, claimed).decide();
    }

    /**
     * The same pass, selections, holds, claims, preemptions and revisits alike, without the reasons of the jobs left
     * waiting: their decisions are NOTHING_FITS with no verdicts. For callers that need only what starts (a forecast
     * runs many passes and reads no reason); wording every waiting job's verdicts is most of a long pass's work.
     */
    public <I extends Comparable<I>> Result<I> selections(List<QueuedRequest<I>> queue, Capacity capacity,
                                                          Map<String, TeamShare> shares, Instant now) {
        return selections(queue, capacity, shares, now, Map.of());
    }

    /** {@link #selections} after an earlier pass's claims, as {@link #decide(List, Capacity, Map, Instant, Map)}. */
    public <I extends Comparable<I>> Result<I> selections(List<QueuedRequest<I>> queue, Capacity capacity,
                                                          Map<String, TeamShare> shares, Instant now,
                                                          Map<I, Claim> claimed) {
        return new Run<I>(queue, capacity, shares, now, false, claimed).decide();
    }

    /** Whether a round holds jobs to their team's guarantee or lets them borrow. */
    private enum Mode {
        GUARANTEE, BORROW
    }

    /** The state of one pass. */
    private final class Run<I extends Comparable<I>> {

        private final Comparator<QueuedRequest<I>> order = QueuedRequest.queueOrder();
        private final Capacity capacity;
        private final Map<String, TeamShare> shares;
        private final Instant now;
        private final List<QueuedRequest<I>> sorted;
        /**
         * Which of a team's jobs goes first: priority, then a job that gave way to a teammate, then (shortest first)
         * the response ratio, then queue order; a strict-FIFO team keeps queue order among its own jobs.
         */
        private final Comparator<QueuedRequest<I>> rank;
        /**
         * When a team's turn comes, where fair share does not decide: {@link #rank} without giving way. A job that gave
         * way goes before its own team's jobs, in the turns its team would have had without it, never before another
         * team's job ({@link #inTurns}).
         */
        private final Comparator<QueuedRequest<I>> turn;
        /** Whether a job of the queue gave way: without one, teams' turns are their next jobs' ranks, as ever. */
        private final boolean anyGaveWay;
        private final Map<String, Line> lines = new LinkedHashMap<>();
        // keyed by the queue's own instances: a record's hash walks its whole request, on every lookup
        private final Map<QueuedRequest<I>, Outcome<I>> decided = new IdentityHashMap<>();
        private final List<Outcome<I>> selections = new ArrayList<>();
        private final Map<OfferingKey, I> holds = new LinkedHashMap<>();
        /** The first booking of this pass on each offering, to explain to the jobs it left waiting. */
        private final Map<OfferingKey, Taken<I>> taken = new HashMap<>();
        /**
         * How many entries of each job were tried and refused, per mode (refused entries stay refused: capacity only
         * shrinks).
         */
        private final Map<Mode, Map<QueuedRequest<I>, Integer>> tried = new EnumMap<>(Mode.class);
        private final Reclaims<I> reclaims;
        /** The claims of the caller's previous pass: their jobs go first. */
        private final Map<I, Claim> claimed;

        /** Whether the jobs left waiting get their verdicts and reasons. */
        private final boolean worded;

        Run(List<QueuedRequest<I>> queue, Capacity capacity, Map<String, TeamShare> shares, Instant now,
            boolean worded, Map<I, Claim> claimed) {
            this.worded = worded;
            this.claimed = sharing.enabled() ? claimed : Map.of();
            this.capacity = capacity;
            this.shares = shares;
            this.now = now;
            this.sorted = queue.stream().sorted(order).toList();
            Comparator<QueuedRequest<I>> priority = Comparator.<QueuedRequest<I>>comparingInt(QueuedRequest::priority)
                    .reversed();
            Comparator<QueuedRequest<I>> ratioThenOrder = policy.shortestFirst()
                    ? Comparator.<QueuedRequest<I>>comparingDouble(this::responseRatio).reversed().thenComparing(order)
                    : order;
            this.rank = priority.thenComparing(QueuedRequest::gaveWay, Comparator.reverseOrder())
                    .thenComparing(ratioThenOrder);
            this.turn = priority.thenComparing(ratioThenOrder);
            // the one sort by turn: every round compares teams by their next job's place in it, a total order
            List<QueuedRequest<I>> inTurn = sorted.stream().sorted(turn).toList();
            for (QueuedRequest<I> job : sorted) {
                lines.computeIfAbsent(job.request().team(), Line::new);
            }
            // a strict-FIFO team's jobs start in queue order whatever the rank says; in any other team the rank is
            // the turn, but for a job that gave way
            Map<QueuedRequest<I>, Integer> strictPlaces = new IdentityHashMap<>();
            for (int i = 0; i < inTurn.size(); i++) {
                QueuedRequest<I> job = inTurn.get(i);
                Line line = lines.get(job.request().team());
                if (line.strict()) {
                    strictPlaces.put(job, i);
                } else {
                    line.add(job, i);
                }
            }
            for (QueuedRequest<I> job : sorted) {
                Line line = lines.get(job.request().team());
                if (line.strict()) {
                    line.add(job, strictPlaces.get(job));
                }
            }
            this.anyGaveWay = queue.stream().anyMatch(QueuedRequest::gaveWay);
            if (anyGaveWay) {
                lines.values().stream().filter(line -> !line.strict() && line.jobs.stream()
                        .anyMatch(QueuedRequest::gaveWay)).forEach(Line::keepTurns);
            }
            for (Mode mode : Mode.values()) {
                tried.put(mode, new IdentityHashMap<>());
            }
            this.reclaims = new Reclaims<>(placement, sharing, capacity, now, this.claimed);
        }

        Result<I> decide() {
            if (policy.reserveAfter() != null) {
                holdForLongWaiters();
            }
            if (!claimed.isEmpty()) {
                startClaimants();
            }
            int rounds = policy.precedence()
                    ? sorted.stream().mapToInt(j -> j.request().preferences().size()).max().orElse(0) : 1;
            for (int round = 0; round < rounds; round++) {
                playRound(policy.precedence() ? round : PreferenceList.MAX_ENTRIES - 1, Mode.GUARANTEE);
            }
            if (sharing.enabled()) {
                claim();
                for (int round = 0; round < rounds; round++) {
                    playRound(policy.precedence() ? round : PreferenceList.MAX_ENTRIES - 1, Mode.BORROW);
                }
                if (sharing.shorterFirst() > 0) {
                    claimFromOwnTeams();
                }
            }
            var outcomes = new ArrayList<Outcome<I>>(sorted.size());
            for (QueuedRequest<I> job : sorted) {
                Outcome<I> outcome = decided.get(job);
                outcomes.add(outcome != null && outcome.decision().isSelected() ? outcome : waitingOutcome(job, outcome));
            }
            var claims = new LinkedHashMap<I, Claim>();
            reclaims.claims().forEach((job, claim) -> claims.put(job.id(), claim.claim()));
            return new Result<>(outcomes, List.copyOf(selections.stream().map(Outcome::job).toList()), holds, claims,
                    reclaims.preemptions());
        }

        /** Whether the job still leaves its later entries to jobs that list them earlier (precedence, not lapsed). */
        private boolean yields(QueuedRequest<I> job) {
            return !policy.precedenceLapsed(responseRatio(job));
        }

        /** (wait + expected run) / expected run now; a job of unknown length counts one mean life. */
        private double responseRatio(QueuedRequest<I> job) {
            double expected = job.expectedRuntime() != null ? job.expectedRuntime().toSeconds()
                    : TeamShare.meanLife(policy.shareHalfLife());
            double waited = Math.max(0, Duration.between(job.submittedAt(), now).toMillis() / 1000.0);
            return (waited + Math.max(1, expected)) / Math.max(1, expected);
        }

        /**
         * Step 1: jobs of several instances past the age (and their expected run, {@link QueuePolicy#holds}), oldest
         * first, take what fits or hold what is free.
         */
        private void holdForLongWaiters() {
            List<QueuedRequest<I>> longWaiters = sorted.stream()
                    .filter(j -> minimumCount(j) > 1
                            && policy.holds(Duration.between(j.submittedAt(), now), responseRatio(j)))
                    .sorted(Comparator.comparing(QueuedRequest<I>::submittedAt).thenComparing(order))
                    .toList();
            for (QueuedRequest<I> job : longWaiters) {
                Line line = lines.get(job.request().team());
                if (line.strict() && line.firstWaiting() != job) {
                    continue; // a strict-FIFO team's later job waits behind its head, however old
                }
                if (tryEntries(job, job.request().preferences().size() - 1, Mode.GUARANTEE) || mayBorrow(job)) {
                    continue; // started, or it borrows in the borrowing rounds: nothing to hold for it
                }
                int best = bestEntry(job);
                if (best < 0) {
                    continue;
                }
                OfferingKey key = job.request().preferences().get(best).offering();
                if (capacity.holds(key)) {
                    continue;
                }
                Decision before = placement.decide(job.request(), capacity, now, patience(job, capacity, now));
                int held = capacity.hold(key, job.request().preferences().get(best).instanceCount(),
                        "job " + job.id() + ", waiting since " + Placement.DATE_TIME.format(job.submittedAt()));
                holds.put(key, job.id());
                decided.put(job, new Outcome<>(job, holding(before, best, held), revisitAt(job, capacity, now)));
            }
        }

        /**
         * Before the rounds: the jobs that claimed instances in the caller's previous pass take the entry they claimed
         * if it fits within their guarantee now; one whose claim was all free or on its way back (no borrower left to
         * end by itself) claims again before any other job may take what is free: what came back for it is its. The
         * claims whose instances have all come back go first, then those still waiting for some of theirs, then
         * those waiting for borrowers to end, each lenders' claims before claims on teammates, in queue order:
         * instances free again are most likely the ones that came back for a claim of the first kind, and go to it
         * rather than to a claim they were not stopped for. A claim on teammates is kept while they stop, and starts
         * on what they gave back by borrowing too if a teammate borrowed meanwhile.
         */
        private void startClaimants() {
            List<QueuedRequest<I>> claimants = sorted.stream()
                    .filter(job -> claimed.containsKey(job.id()))
                    .sorted(Comparator.comparingInt((QueuedRequest<I> job) -> readiness(claimed.get(job.id())))
                            .thenComparing(job -> claimed.get(job.id()).withinTeam())
                            .thenComparing(order))
                    .toList();
            for (QueuedRequest<I> job : claimants) {
                Claim claim = claimed.get(job.id());
                if (selectedAlready(job) || claim.entry() >= job.request().preferences().size()) {
                    continue;
                }
                Line line = lines.get(job.request().team());
                if (line.strict() && line.firstWaiting() != job) {
                    continue;
                }
                int entry = claim.entry();
                IntFunction<String> patience = patience(job, capacity, now);
                // what teammates gave back is the job's even where a teammate borrowed meanwhile: it may borrow too
                SharingPolicy terms = claim.withinTeam() ? sharing : SharingPolicy.OFF;
                if (patience.apply(entry) == null && placement.fits(job.request(), entry, capacity, now, terms)) {
                    IntFunction<String> onlyClaimed = i -> i == entry ? null : "waits for entry " + entry
                            + ", which it claimed";
                    book(job, placement.decide(job.request(), capacity, now, onlyClaimed, terms), entry);
                } else if (claim.withinTeam()) {
                    reclaims.keepFromOwnTeam(job, claim);
                } else if (claim.awaited() == 0) {
                    // everything it needs was free or on its way back: keep it so
                    reclaims.claim(job, patience);
                }
                // a claim that waited for borrowers to end holds free instances against borrowers only (step 5):
                // jobs within their guarantee may use them meanwhile, rather than leave them idle for hours
            }
        }

        /**
         * 0 for a claim whose instances have all come back, 1 for one still waiting for some of those being stopped
         * for it, 2 for one waiting for borrowers to end.
         */
        private int readiness(Claim claim) {
            if (claim.awaited() > 0) {
                return 2;
            }
            for (RunningPlacement running : capacity.runningOn(claim.offering())) {
                if (running.stopping() && claim.comingBack().contains(running.job())) {
                    return 1;
                }
            }
            return 0;
        }

        /** Whether some entry of the job could be borrowed now. */
        private boolean mayBorrow(QueuedRequest<I> job) {
            if (!sharing.enabled()) {
                return false;
            }
            IntFunction<String> patience = patience(job, capacity, now);
            for (int i = 0; i < job.request().preferences().size(); i++) {
                if (patience.apply(i) == null && placement.fits(job.request(), i, capacity, now, sharing)) {
                    return true;
                }
            }
            return false;
        }

        /** Steps 2, 3 and 6: one round, teams taking turns; each turn is one job's try. */
        private void playRound(int round, Mode mode) {
            var turns = new PriorityQueue<Line>(policy.fairShare()
                    ? Comparator.comparingDouble(Line::standing).thenComparingInt(Line::turn)
                    : Comparator.comparingInt(Line::turn));
            for (Line line : lines.values()) {
                line.cursor = 0;
                line.startRound();
                if (line.advance()) {
                    turns.add(line);
                }
            }
            while (!turns.isEmpty()) {
                Line line = turns.poll();
                QueuedRequest<I> job = line.next();
                line.cursor++;
                line.turns++;
                // a claiming job waits for what it claims; a strict-FIFO team's claiming head holds the rest back
                boolean placed = !reclaims.claims(job) && tryEntries(job, yields(job) ? round
                        : PreferenceList.MAX_ENTRIES - 1, mode);
                if ((placed || !line.strict()) && line.advance()) {
                    turns.add(line);
                }
            }
        }

        /** Tries the job's entries not yet tried in this mode, up to {@code last}; books and records the first that fits. */
        private boolean tryEntries(QueuedRequest<I> job, int last, Mode mode) {
            PlacementRequest request = job.request();
            Map<QueuedRequest<I>, Integer> triedInMode = tried.get(mode);
            int from = triedInMode.getOrDefault(job, 0);
            int to = Math.min(last, request.preferences().size() - 1);
            SharingPolicy terms = mode == Mode.BORROW ? sharing : SharingPolicy.OFF;
            IntFunction<String> closed = mode == Mode.GUARANTEE ? preferringToBorrow(job) : patience(job, capacity, now);
            for (int i = from; i <= to; i++) {
                if (placement.fits(request, i, capacity, now, terms) && closed.apply(i) == null) {
                    Decision decision = placement.decide(request, capacity, now, closed, terms);
                    int selected = decision.selected().orElseThrow().index();
                    if (selected != i) {
                        throw new IllegalStateException("entry " + i + " of job " + job.id() + " fits, but "
                                + selected + " was selected");
                    }
                    book(job, decision, i);
                    triedInMode.put(job, request.preferences().size());
                    return true;
                }
            }
            triedInMode.put(job, Math.max(from, to + 1));
            return false;
        }

        /** Books the job's selected entry {@code i} and records its outcome. */
        private void book(QueuedRequest<I> job, Decision decision, int i) {
            PlacementRequest request = job.request();
            placement.book(request, decision, capacity);
            lines.get(request.team()).booked(job, request.preferences().get(i));
            taken.putIfAbsent(request.preferences().get(i).offering(), new Taken<>(job.id(), request.team(), i));
            Outcome<I> outcome = new Outcome<>(job, decision, null);
            decided.put(job, outcome);
            selections.add(outcome);
        }

        /**
         * The job's patience, and with sharing on under {@link SharingPolicy.WhenCanBorrow#BORROW}, an entry closed
         * in the rounds within the guarantee when an earlier entry could be borrowed: the job prefers that one, and
         * takes this one in the borrowing rounds only if it cannot borrow it after all.
         */
        private IntFunction<String> preferringToBorrow(QueuedRequest<I> job) {
            IntFunction<String> patience = patience(job, capacity, now);
            if (!sharing.enabled() || sharing.whenCanBorrow() != SharingPolicy.WhenCanBorrow.BORROW) {
                return patience;
            }
            return i -> {
                String closed = patience.apply(i);
                if (closed != null) {
                    return closed;
                }
                for (int j = 0; j < i; j++) {
                    if (patience.apply(j) == null && placement.borrows(job.request(), j, capacity, now, sharing)) {
                        return "entry " + j + " could be borrowed first";
                    }
                }
                return null;
            };
        }

        /**
         * Step 5: the jobs left waiting claim what their teams' guarantees cover: those that claimed in the caller's
         * previous pass first, in queue order, then the others, best rank first.
         */
        private void claim() {
            List<QueuedRequest<I>> waiting = sorted.stream()
                    .filter(job -> !selectedAlready(job))
                    .filter(job -> {
                        Line line = lines.get(job.request().team());
                        return !line.strict() || line.firstWaiting() == job;
                    })
                    .toList();
            var claimedBefore = waiting.stream().filter(job -> claimed.containsKey(job.id())).toList();
            var others = inTurns(waiting.stream().filter(job -> !claimed.containsKey(job.id())).toList());
            for (QueuedRequest<I> job : Stream.concat(claimedBefore.stream(), others.stream()).toList()) {
                if (!reclaims.claims(job)) {
                    reclaims.claim(job, patience(job, capacity, now));
                }
            }
        }

        /**
         * Step 7: the jobs that fit nowhere and claim nothing, best rank first, take what their own team's longer
         * preemptible jobs hold ({@link SharingPolicy#shorterFirst}).
         */
        private void claimFromOwnTeams() {
            List<QueuedRequest<I>> waiting = sorted.stream()
                    .filter(job -> !selectedAlready(job) && !reclaims.claims(job)
                            && job.request().maxRuntime() != null)
                    .filter(job -> {
                        Line line = lines.get(job.request().team());
                        return !line.strict() || line.firstWaiting() == job;
                    })
                    .toList();
            for (QueuedRequest<I> job : inTurns(waiting)) {
                reclaims.claimFromOwnTeam(job, patience(job, capacity, now));
            }
        }

        /**
         * The jobs in the order their teams' turns come ({@link #turn}), each team's turns taken by its own jobs in
         * its order ({@link #rank}; queue order in a strict-FIFO team): a job that gave way to a teammate takes its
         * team's first turn, and no other team's job moves.
         */
        private List<QueuedRequest<I>> inTurns(List<QueuedRequest<I>> jobs) {
            if (!anyGaveWay) {
                return jobs.stream().sorted(rank).toList();
            }
            var byTeam = new HashMap<String, ArrayDeque<QueuedRequest<I>>>();
            jobs.stream().collect(Collectors.groupingBy(job -> job.request().team())).forEach((team, own) -> {
                own.sort(lines.get(team).strict() ? order : rank);
                byTeam.put(team, new ArrayDeque<>(own));
            });
            return jobs.stream().sorted(turn).map(job -> byTeam.get(job.request().team()).poll()).toList();
        }

        private boolean selectedAlready(QueuedRequest<I> job) {
            Outcome<I> outcome = decided.get(job);
            return outcome != null && outcome.decision().isSelected();
        }

        /** A holder keeps the outcome it got when it took its hold. */
        private Outcome<I> waitingOutcome(QueuedRequest<I> job, Outcome<I> holding) {
            return holding != null ? holding : waiting(job);
        }

        private Outcome<I> waiting(QueuedRequest<I> job) {
            Instant revisit = revisitAt(job, capacity, now);
            if (!worded) {
                return new Outcome<>(job, new Decision(Decision.Outcome.NOTHING_FITS, List.of()), revisit);
            }
            Line line = lines.get(job.request().team());
            QueuedRequest<I> head = line.firstWaiting();
            if (line.strict() && head != job) {
                return new Outcome<>(job, Decision.heldBack(job.request().preferences(),
                        "waiting behind job " + head.id() + " (strict FIFO)"), null);
            }
            return new Outcome<>(job, reclaims.explained(job, explained(job, decision(job))), revisit);
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
            if (policy.precedence() && by.index() < index && yields(job)) {
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

        /** The waiting job's verdicts as they stand at the end of the pass; a claiming job's other entries wait. */
        private Decision decision(QueuedRequest<I> job) {
            IntFunction<String> patience = patience(job, capacity, now);
            IntFunction<String> closed = reclaims.claims(job) ? reclaims.closedBesidesClaim(job, patience) : patience;
            return placement.decide(job.request(), capacity, now, closed, sharing.enabled() ? sharing : SharingPolicy.OFF);
        }

        /** The job's verdicts with the held entry saying so. */
        private Decision holding(Decision decision, int entry, int held) {
            var verdicts = new ArrayList<>(decision.entries());
            EntryVerdict verdict = verdicts.get(entry);
            verdicts.set(entry, new EntryVerdict(verdict.index(), verdict.instanceType(), verdict.instanceCount(),
                    verdict.region(), verdict.source(), false, verdict.reason() + "; " + held
                    + " held for this job, which has waited past " + words(policy.reserveAfter())
                    + (policy.holdAfterRun() ? " and its expected run" : "")));
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
            /** A strict-FIFO team: its jobs go in queue order. */
            private final boolean strict;
            final List<QueuedRequest<I>> jobs = new ArrayList<>();
            /** Each job's place in the pass's order by {@link #turn}, beside it in {@link #jobs}. */
            private int[] places = new int[8];
            int cursor;
            /** The turns the team has taken in this round. */
            int turns;
            /**
             * In a team that goes by rank and has a job that gave way, the places of the turns its jobs would have
             * without giving way ({@link #keepTurns}), and this round's: those of jobs left at its start. Null in any
             * other team, whose next job's place is its turn.
             */
            private List<QueuedRequest<I>> byTurn;
            private int[] byTurnPlaces;
            private int[] slots;
            private int head;
            private double charged;

            Line(String team) {
                this.team = team;
                this.strict = capacity.team(team).map(TeamState::strictFifo).orElse(false);
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

            /** Adds the team's next job, in the order the team goes in. */
            void add(QueuedRequest<I> job, int place) {
                if (jobs.size() == places.length) {
                    places = Arrays.copyOf(places, 2 * places.length);
                }
                places[jobs.size()] = place;
                jobs.add(job);
            }

            /** Keeps the turns in the order its jobs were added (by turn), and puts the jobs in order of rank. */
            void keepTurns() {
                byTurn = List.copyOf(jobs);
                byTurnPlaces = Arrays.copyOf(places, jobs.size());
                jobs.sort(rank);
            }

            void startRound() {
                turns = 0;
                if (byTurn != null) {
                    slots = IntStream.range(0, byTurn.size()).filter(i -> !selectedAlready(byTurn.get(i)))
                            .map(i -> byTurnPlaces[i]).toArray();
                }
            }

            /**
             * When the team's next turn comes, as a place in the pass's order by turn: its next job's; in a team with a
             * job that gave way, its next turn as if none had (the team keeps its turns, and the job that gave way takes
             * the first of them).
             */
            int turn() {
                return slots == null ? places[cursor] : slots[turns];
            }

            /** The team's first job not selected yet; jobs before it are all selected, so the search resumes there. */
            QueuedRequest<I> firstWaiting() {
                while (head < jobs.size() && selectedAlready(jobs.get(head))) {
                    head++;
                }
                return head < jobs.size() ? jobs.get(head) : null;
            }

            boolean strict() {
                return strict;
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
                    + " before taking entry " + i + " (patience " + words(patience) + " per entry"
                    + (byRun(job, patience) ? ", " + Math.round(policy.patienceShare() * 1000) / 10.0
                    + " % of its expected run of " + words(job.expectedRuntime()) : "") + ")";
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

    /** Whether the job's patience is the share of its expected run. */
    private boolean byRun(QueuedRequest<?> job, Duration patience) {
        return job.fallbackAfter() == null && job.expectedRuntime() != null && policy.patienceShare() > 0
                && patience.compareTo(policy.fallbackAfter()) > 0;
    }

    private Duration patienceOf(QueuedRequest<?> job) {
        if (job.fallbackAfter() != null) {
            return job.fallbackAfter();
        }
        if (policy.patienceShare() > 0 && job.expectedRuntime() != null) {
            Duration share = Duration.ofSeconds((long) (policy.patienceShare() * job.expectedRuntime().toSeconds()));
            return share.compareTo(policy.fallbackAfter()) > 0 ? share : policy.fallbackAfter();
        }
        return policy.fallbackAfter();
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
