package io.spillover.placement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.spillover.catalog.JobKind;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The lender's promise, over random sequences of submissions, ends, borrows and reclaims: a small scheduler drives
 * the production {@link QueuePass} cycle by cycle, applying its selections and preemptions as the service does (a
 * preempted placement stops after the grace, and its job is requeued at its place), and checks after every cycle:
 * <ul>
 *   <li>no job of a team below its guarantee, that would fit within it with the instances borrowers hold, waits
 *       longer than the reclaim bound for them: the borrow horizon with bounded borrowers, the grace and a cycle with
 *       preemptible ones only (a borrower's minimum run does not delay it);</li>
 *   <li>nothing is overbooked, no team holds more than its ceiling, and every borrowed placement is bounded;</li>
 *   <li>a reclaim preempts only preemptible placements of teams above their guarantee, no more of them than the
 *       claiming job needs, and one within its minimum run only when its team's placements there past theirs would
 *       not cover the need instead; with in-team preemption on, a job's own teammates give way only when they are
 *       preemptible, placed within the guarantee, of no higher priority, past their minimum run and long enough,
 *       never a second time, and go first in their team once requeued, and the lender's bound still holds;</li>
 *   <li>a preempted job does not take back the offering it was preempted from while the job it made room for still
 *       waits for it;</li>
 *   <li>every claim is covered (what is held, coming back and awaited is at least what its job needs), and a claim
 *       that waits for no borrower to end starts within the grace and one cycle of its first such pass: what comes
 *       back for one claim goes to it, not to another claim of the offering.</li>
 * </ul>
 * Seeded, so a failure names the seed that makes it again.
 */
class SharingPropertyTest {

    static final Instant START = Instant.parse("2026-12-02T00:00:00Z");
    static final String P4D = PlacementTest.P4D;
    static final String G6E = PlacementTest.G6E;
    static final OfferingKey P4D_EAST = OfferingKey.onDemand("us-east-1", P4D);
    static final OfferingKey G6E_EAST = OfferingKey.onDemand("us-east-1", G6E);
    static final List<String> TEAMS = List.of("vision", "nlp", "speech", "ads");
    static final long CYCLE = 60;
    static final int SEEDS = 40;

    static final SharingPolicy POLICY = SharingPolicy.DEFAULT.withCycle(Duration.ofSeconds(CYCLE));

    @ParameterizedTest(name = "preemptible borrowers only, seeds from {0}")
    @ValueSource(longs = {1, 1001})
    void aLenderWaitsAtMostTheGraceAndACycleForPreemptibleBorrowers(long firstSeed) {
        long bound = POLICY.grace().toSeconds() + 2 * CYCLE;
        assertExercised(simulate(firstSeed, false, POLICY, 720, bound));
    }

    @ParameterizedTest(name = "bounded and preemptible borrowers, seeds from {0}")
    @ValueSource(longs = {5001})
    void aLenderWaitsAtMostTheHorizonGraceAndACycleForBoundedBorrowers(long firstSeed) {
        long bound = POLICY.borrowHorizon().plus(POLICY.grace()).toSeconds() + 2 * CYCLE;
        assertExercised(simulate(firstSeed, true, POLICY, 720, bound));
    }

    @ParameterizedTest(name = "a list that tries its next entry first, seeds from {0}")
    @ValueSource(longs = {9001})
    void theBoundHoldsWhenAListTriesItsNextEntryBeforeBorrowing(long firstSeed) {
        SharingPolicy tryNext = POLICY.withWhenCanBorrow(SharingPolicy.WhenCanBorrow.TRY_NEXT_ENTRY);
        long bound = POLICY.grace().toSeconds() + 2 * CYCLE;
        assertExercised(simulate(firstSeed, false, tryNext, 720, bound));
    }

    @ParameterizedTest(name = "shorter first within a team, seeds from {0}")
    @ValueSource(longs = {13001})
    void theBoundHoldsWithInTeamPreemptionAndOnlyLongerTeammatesGiveWay(long firstSeed) {
        SharingPolicy shorterFirst = POLICY.withShorterFirst(SharingPolicy.SHORTER_FIRST_RATIO);
        long bound = POLICY.borrowHorizon().plus(POLICY.grace()).toSeconds() + 2 * CYCLE;
        Exercised exercised = simulate(firstSeed, true, shorterFirst, 720, bound);
        assertExercised(exercised);
        assertThat(exercised.gaveWay()).as("teammates that gave way").isGreaterThan(10);
    }

    /** What the simulations did, so that a test that checked nothing fails. */
    private record Exercised(long borrowed, long preemptions, long longestClaimableWait, long gaveWay) {
    }

    private static Exercised simulate(long firstSeed, boolean bounded, SharingPolicy policy, int cycles, long bound) {
        long borrowed = 0;
        long preemptions = 0;
        long longest = 0;
        long gaveWay = 0;
        for (long seed = firstSeed; seed < firstSeed + SEEDS; seed++) {
            var simulation = new Simulation(seed, bounded, policy);
            simulation.run(cycles, bound);
            borrowed += simulation.borrowed;
            preemptions += simulation.preemptions;
            longest = Math.max(longest, simulation.longestClaimableWait);
            gaveWay += simulation.gaveWay;
        }
        return new Exercised(borrowed, preemptions, longest, gaveWay);
    }

    private static void assertExercised(Exercised exercised) {
        assertThat(exercised.borrowed()).as("borrowed starts").isGreaterThan(50);
        assertThat(exercised.preemptions()).as("preemptions").isGreaterThan(10);
        assertThat(exercised.longestClaimableWait()).as("the longest wait for borrowed capacity").isPositive();
    }

    /** A job of the simulation: what it asks, how long it runs, what it has done. */
    private static final class Job {
        final String id;
        QueuedRequest<String> queued;
        final long runSeconds;
        long workLeft;
        int preemptions;

        Job(String id, QueuedRequest<String> queued, long runSeconds) {
            this.id = id;
            this.queued = queued;
            this.runSeconds = runSeconds;
            this.workLeft = runSeconds;
        }

        String team() {
            return queued.request().team();
        }
    }

    /** A placement holding instances, and when it ends. */
    private record Run(Job job, PreferenceEntry entry, Instant started, boolean borrowed, long endsAt,
                       long naturalEnd, Instant preemptedAt) {

        RunningPlacement placement() {
            return new RunningPlacement(job.id, job.team(), entry.offering(), entry.instanceCount(),
                    job.queued.priority(), started, borrowed, job.queued.request().preemptible(),
                    job.queued.request().maxRuntime(), job.preemptions, preemptedAt);
        }
    }

    private static final class Simulation {

        private final long seed;
        private final SplittableRandom random;
        private final boolean bounded;
        private final QueuePass pass;
        private final SharingPolicy policy;
        private final Map<String, TeamState> teams = new LinkedHashMap<>();
        private final Map<String, Job> waiting = new TreeMap<>();
        private final Map<String, Run> running = new LinkedHashMap<>();
        private final Map<String, Long> claimableSince = new HashMap<>();
        /** Per claiming job, since when its claims have needed no borrower to end by itself. */
        private final Map<String, Long> coveredSince = new HashMap<>();
        /** Per preempted job, the offering it gave back and the job it gave it to. */
        private final Map<String, Map.Entry<OfferingKey, String>> reclaimedFrom = new HashMap<>();
        /** The jobs being stopped for a teammate: requeued, they go first in their team. */
        private final Set<String> gaveWayTo = new HashSet<>();
        private final List<String> log = new ArrayList<>();
        private Map<String, QueuePass.Claim> claims = Map.of();
        private int submitted;
        long borrowed;
        long preemptions;
        long longestClaimableWait;
        long gaveWay;

        Simulation(long seed, boolean bounded, SharingPolicy policy) {
            this.seed = seed;
            this.random = new SplittableRandom(seed);
            this.bounded = bounded;
            this.pass = new QueuePass(new Placement(PlacementTest.CATALOG), QueuePolicy.DEFAULT, policy);
            this.policy = policy;
            for (String team : TEAMS) {
                // the busiest team borrows; a team that reserves its idle quota now and then
                SharingStrategy strategy = team.equals(TEAMS.get(0)) ? SharingStrategy.LEND_AND_BORROW
                        : List.of(SharingStrategy.RESERVE, SharingStrategy.LEND, SharingStrategy.LEND_AND_BORROW,
                        SharingStrategy.LEND_AND_BORROW, SharingStrategy.LEND_AND_BORROW).get(random.nextInt(5));
                BorrowLimit limit = switch (random.nextInt(3)) {
                    case 0 -> BorrowLimit.UNLIMITED;
                    case 1 -> BorrowLimit.percent(50);
                    default -> BorrowLimit.perType(Map.of(P4D, 2));
                };
                // every team may hold half of each type, as in the replay's fleets: 4 teams, 8 instances
                teams.put(team, new TeamState(team, Map.of(P4D, 4, G6E, 4), Map.of(), null, 0, null, 0, false,
                        strategy, limit));
            }
        }

        void run(int cycles, long bound) {
            for (int c = 0; c < cycles; c++) {
                long now = c * CYCLE;
                end(now);
                if (c < cycles - 60) {
                    // bursts from one team at a time, about as much as the fleet can run: queues form, and teams go
                    // below and above their guarantees
                    submit(now, random.nextInt(12) == 0 ? 1 + random.nextInt(3) : 0);
                }
                cycle(now, bound);
            }
        }

        private void submit(long now, int jobs) {
            String team = TEAMS.get(random.nextInt(10) < 6 ? 0 : random.nextInt(TEAMS.size()));
            for (int j = 0; j < jobs; j++) {
                var entries = new ArrayList<PreferenceEntry>();
                int count = 1 + random.nextInt(3);
                boolean p4dFirst = random.nextBoolean();
                entries.add(new PreferenceEntry(p4dFirst ? P4D : G6E, count, "us-east-1", null));
                if (random.nextBoolean()) {
                    entries.add(new PreferenceEntry(p4dFirst ? G6E : P4D, count, "us-east-1", null));
                }
                boolean preemptible = random.nextInt(3) > 0;
                Duration maxRuntime = bounded && random.nextBoolean()
                        ? Duration.ofMinutes(30 + random.nextInt(90)) : null;
                long run = 300 + random.nextInt(3 * 3600);
                if (maxRuntime != null) {
                    run = Math.min(run, maxRuntime.toSeconds()); // the service stops it there
                }
                String id = "j" + (submitted++);
                var request = new PlacementRequest(team, JobKind.TRAINING, new PreferenceList(entries), maxRuntime,
                        preemptible);
                var queued = new QueuedRequest<>(id, request, random.nextInt(3), START.plusSeconds(now), null,
                        Duration.ofSeconds(run));
                waiting.put(id, new Job(id, queued, run));
                log.add(now + " submit " + id + " " + team + " " + entries.stream().map(e -> e.instanceCount() + "x"
                        + e.instanceType()).toList() + (preemptible ? " preemptible" : "")
                        + (maxRuntime == null ? "" : " max " + maxRuntime.toMinutes() + " min") + " run " + run);
            }
        }

        /** Runs that end now: finished, or stopped after a reclaim's grace and requeued at their place. */
        private void end(long now) {
            for (Run run : List.copyOf(running.values())) {
                if (run.endsAt > now) {
                    continue;
                }
                running.remove(run.job.id);
                use(run.job.team(), run.entry, -1);
                if (run.preemptedAt != null && run.endsAt < run.naturalEnd) {
                    run.job.workLeft = Math.max(1, run.job.workLeft - (now - secondsOf(run.started)) / 2);
                    run.job.preemptions++;
                    // one that gave way to a teammate goes before its team's other jobs of its priority
                    run.job.queued = run.job.queued.withGaveWay(gaveWayTo.remove(run.job.id));
                    waiting.put(run.job.id, run.job);
                    log.add(now + " stopped " + run.job.id + ", requeued");
                } else {
                    log.add(now + " ended " + run.job.id);
                }
            }
        }

        private void cycle(long now, long bound) {
            Instant at = START.plusSeconds(now);
            Capacity before = capacity();
            checkTheLendersWait(before, now, bound);
            List<QueuedRequest<String>> queue = waiting.values().stream().map(j -> j.queued).toList();
            QueuePass.Result<String> result = pass.decide(queue, capacity(), Map.of(), at, claims);
            for (QueuePass.Outcome<String> outcome : result.outcomes()) {
                if (!outcome.decision().isSelected()) {
                    continue;
                }
                Job job = waiting.remove(outcome.job().id());
                PreferenceEntry entry = job.queued.request().preferences()
                        .get(outcome.decision().selected().orElseThrow().index());
                checkNotTakenBack(job, entry, result);
                // what was reclaimed for this job reached it: its victims may take the offering again
                reclaimedFrom.values().removeIf(reclaim -> reclaim.getValue().equals(job.id));
                boolean borrowed = outcome.decision().borrowed();
                if (borrowed && !POLICY.bounded(job.queued.request().maxRuntime(), job.queued.request().preemptible())) {
                    fail("an unbounded job borrowed: " + job.id);
                }
                running.put(job.id, new Run(job, entry, at, borrowed, now + job.workLeft, now + job.workLeft, null));
                this.borrowed += borrowed ? 1 : 0;
                use(job.team(), entry, 1);
                log.add(now + " start " + job.id + " on " + entry.instanceType() + (borrowed ? " borrowed" : ""));
            }
            for (QueuePass.Preemption<String> preemption : result.preemptions()) {
                Run victim = running.get(preemption.victim().job());
                checkVictim(before, victim, at, preemption, result);
                running.put(victim.job.id, new Run(victim.job, victim.entry, victim.started, victim.borrowed,
                        Math.min(victim.endsAt, now + POLICY.grace().toSeconds()), victim.naturalEnd, at));
                reclaimedFrom.put(victim.job.id, Map.entry(victim.entry.offering(), preemption.forJob()));
                if (result.claims().get(preemption.forJob()).withinTeam()) {
                    gaveWayTo.add(victim.job.id);
                }
                preemptions++;
                log.add(now + " preempt " + victim.job.id + " for " + preemption.forJob());
            }
            checkOnlyWhatIsNeeded(before, result);
            checkClaimsServed(result, now);
            claims = result.claims();
            checkBooks();
        }

        /**
         * Every claim is covered: what is free, on its way back and awaited covers what its job needs. What comes
         * back for a claim goes to it: a job whose claim is all free or on its way back, pass after pass,
         * starts within the grace and one cycle of its first such claim, whatever other claims the offering has.
         */
        private void checkClaimsServed(QueuePass.Result<String> result, long now) {
            long bound = POLICY.grace().toSeconds() + CYCLE;
            result.claims().forEach((job, claim) -> {
                if (claim.held() + claim.reclaiming() + claim.awaited() < claim.instances()) {
                    fail("seed " + seed + ": job " + job + "'s claim falls short: " + claim + "\n"
                            + String.join("\n", log));
                }
                if (claim.awaited() > 0) {
                    coveredSince.remove(job);
                    return;
                }
                long since = coveredSince.computeIfAbsent(job, id -> now);
                if (now - since > bound) {
                    fail("seed " + seed + ": job " + job + " has claimed only free instances and instances on their"
                            + " way back since " + since + " s, " + (now - since) + " s > " + bound + " s\n"
                            + String.join("\n", log));
                }
            });
            coveredSince.keySet().retainAll(result.claims().keySet());
        }

        /** The promise: claimable continuously for longer than the bound never happens. */
        private void checkTheLendersWait(Capacity capacity, long now, long bound) {
            for (Job job : waiting.values()) {
                if (claimable(capacity, job)) {
                    long since = claimableSince.computeIfAbsent(job.id, id -> now);
                    longestClaimableWait = Math.max(longestClaimableWait, now - since);
                    if (now - since > bound) {
                        fail("seed " + seed + ": job " + job.id + " of team " + job.team() + " has fitted within its"
                                + " guarantee with what borrowers hold since " + since + " s, " + (now - since)
                                + " s > " + bound + " s\n" + String.join("\n", log));
                    }
                } else {
                    claimableSince.remove(job.id);
                }
            }
            claimableSince.keySet().retainAll(waiting.keySet());
        }

        /**
         * Whether the job's team is below its guarantee for an entry of its list, and the offering's free instances
         * and those held beyond their teams' guarantees in borrowed or preemptible placements would make it fit, once
         * the other lenders' jobs that claimed the offering in the last pass have what they claimed (among lenders, a
         * claim goes to the best-ranked job first, and the next one's wait starts once what remains could serve it).
         */
        private boolean claimable(Capacity capacity, Job job) {
            TeamState team = teams.get(job.team());
            for (PreferenceEntry entry : job.queued.request().preferences().entries()) {
                String type = entry.instanceType();
                int claimedByOthers = claims.entrySet().stream()
                        .filter(c -> !c.getKey().equals(job.id) && c.getValue().offering().equals(entry.offering()))
                        .mapToInt(c -> c.getValue().instances()).sum();
                if (team.inUse(type) + entry.instanceCount() <= team.guarantee(type)
                        && capacity.offering(entry.offering()).orElseThrow().available()
                        + capacity.reclaimable(entry.offering()) - claimedByOthers >= entry.instanceCount()) {
                    return true;
                }
            }
            return false;
        }

        private void checkVictim(Capacity before, Run victim, Instant at, QueuePass.Preemption<String> preemption,
                                 QueuePass.Result<String> result) {
            assertThat(victim).as("seed %d: the victim %s runs", seed, preemption.victim().job()).isNotNull();
            assertThat(victim.preemptedAt).as("seed %d: %s is not stopping already", seed, victim.job.id).isNull();
            assertThat(victim.job.queued.request().preemptible()).as("seed %d: %s opted in", seed, victim.job.id)
                    .isTrue();
            if (result.claims().get(preemption.forJob()).withinTeam()) {
                // in-team preemption: a longer teammate of no higher priority, past its minimum run, gives way
                Job claimant = waiting.get(preemption.forJob());
                assertThat(policy.shorterFirst()).as("seed %d: in-team preemption is on", seed).isPositive();
                assertThat(victim.job.team()).as("seed %d: %s is a teammate of %s", seed, victim.job.id, claimant.id)
                        .isEqualTo(claimant.team());
                assertThat(victim.borrowed).as("seed %d: %s was placed within the guarantee", seed, victim.job.id)
                        .isFalse();
                assertThat(victim.job.queued.priority()).isLessThanOrEqualTo(claimant.queued.priority());
                assertThat(victim.started.plus(POLICY.preemptExempt())).isBeforeOrEqualTo(at);
                assertThat(victim.job.preemptions).as("seed %d: %s gives way at most once", seed, victim.job.id)
                        .isZero();
                assertThat(policy.givesWay(claimant.queued.request().maxRuntime(), victim.placement(), at))
                        .as("seed %d: %s may run %d times as long as %s", seed, victim.job.id,
                                (long) policy.shorterFirst(), claimant.id).isTrue();
                gaveWay++;
                return;
            }
            assertThat(before.team(victim.job.team()).orElseThrow().borrowed(victim.entry.instanceType()))
                    .as("seed %d: %s's team is above its guarantee", seed, victim.job.id).isPositive();
            if (victim.started.plus(POLICY.preemptExempt()).isAfter(at)) {
                // within its minimum run: a placement of its team there past its own is spared only when stopping it
                // instead would not have covered the need (it is smaller), or another claim counts on it
                var victims = result.preemptions().stream().map(p -> p.victim().job()).toList();
                boolean counted = result.claims().entrySet().stream().anyMatch(c -> !c.getKey().equals(
                        preemption.forJob()) && c.getValue().offering().equals(victim.entry.offering())
                        && c.getValue().awaited() > 0);
                for (Run other : running.values()) {
                    if (other.job.team().equals(victim.job.team()) && other.entry.offering().equals(
                            victim.entry.offering()) && other.job.queued.request().preemptible()
                            && other.preemptedAt == null && !other.started.plus(POLICY.preemptExempt()).isAfter(at)
                            && !victims.contains(other.job.id) && !counted) {
                        assertThat(other.entry.instanceCount()).as("seed %d: %s, past its minimum run, is spared"
                                + " while %s, within it, is stopped", seed, other.job.id, victim.job.id)
                                .isLessThan(victim.entry.instanceCount());
                    }
                }
            }
        }

        /**
         * Dropping any one victim of a claim would leave its job short: of instances, or, when teammates give way, of
         * room within its team's guarantee (the team's use, its other claims of the pass included).
         */
        private void checkOnlyWhatIsNeeded(Capacity before, QueuePass.Result<String> result) {
            var byJob = new HashMap<String, List<RunningPlacement>>();
            result.preemptions().forEach(p -> byJob.computeIfAbsent(p.forJob(), j -> new ArrayList<>()).add(p.victim()));
            byJob.forEach((job, victims) -> {
                QueuePass.Claim claim = result.claims().get(job);
                int freed = victims.stream().mapToInt(RunningPlacement::instances).sum();
                int stopping = claim.reclaiming() - freed;
                int needed = claim.instances() - claim.held() - stopping;
                if (claim.withinTeam()) {
                    String team = waiting.get(job).team();
                    String type = claim.offering().instanceType();
                    int used = before.team(team).orElseThrow().inUse(type) + result.claims().entrySet().stream()
                            .filter(c -> !c.getKey().equals(job) && waiting.get(c.getKey()).team().equals(team)
                                    && c.getValue().offering().instanceType().equals(type))
                            .mapToInt(c -> c.getValue().instances()).sum();
                    // and what the pass started for the team before it came to the claim
                    for (QueuePass.Outcome<String> outcome : result.outcomes()) {
                        if (outcome.decision().isSelected() && outcome.job().request().team().equals(team)) {
                            EntryVerdict selected = outcome.decision().selected().orElseThrow();
                            used += selected.instanceType().equals(type) ? selected.instanceCount() : 0;
                        }
                    }
                    int guarantee = before.team(team).orElseThrow().guarantee(type);
                    for (RunningPlacement victim : victims) {
                        int without = freed - victim.instances();
                        assertThat(without < needed || used - without + claim.instances() > guarantee)
                                .as("seed %d: teammates of %s give way beyond its need\n%s", seed, job,
                                        String.join("\n", log)).isTrue();
                    }
                    return;
                }
                for (RunningPlacement victim : victims) {
                    assertThat(freed - victim.instances()).as("seed %d: victims of %s beyond its need", seed, job)
                            .isLessThan(needed);
                }
            });
        }

        /** A preempted job does not start on the offering it gave back while the job it gave it to waits. */
        private void checkNotTakenBack(Job job, PreferenceEntry entry, QueuePass.Result<String> result) {
            var reclaim = reclaimedFrom.remove(job.id);
            if (reclaim != null && reclaim.getKey().equals(entry.offering()) && waiting.containsKey(reclaim.getValue())
                    && result.outcomes().stream().noneMatch(o -> o.job().id().equals(reclaim.getValue())
                    && o.decision().isSelected())) {
                fail("seed " + seed + ": " + job.id + " took back what was reclaimed for " + reclaim.getValue() + "\n"
                        + String.join("\n", log));
            }
        }

        /** Nothing overbooked, no team above its ceiling. */
        private void checkBooks() {
            var inUse = new HashMap<OfferingKey, Integer>();
            running.values().forEach(r -> inUse.merge(r.entry.offering(), r.entry.instanceCount(), Integer::sum));
            assertThat(inUse.getOrDefault(P4D_EAST, 0)).as("seed %d: p4d in use", seed).isLessThanOrEqualTo(8);
            assertThat(inUse.getOrDefault(G6E_EAST, 0)).as("seed %d: g6e in use", seed).isLessThanOrEqualTo(8);
            for (TeamState team : teams.values()) {
                for (String type : List.of(P4D, G6E)) {
                    assertThat(team.inUse(type)).as("seed %d: team %s's %s", seed, team.team(), type)
                            .isLessThanOrEqualTo(team.ceiling(type));
                }
            }
        }

        private void use(String team, PreferenceEntry entry, int sign) {
            TeamState state = teams.get(team);
            var used = new HashMap<>(state.instancesInUse());
            used.merge(entry.instanceType(), sign * entry.instanceCount(), Integer::sum);
            teams.put(team, state.withUse(used, 0, 0));
        }

        private Capacity capacity() {
            var inUse = new HashMap<OfferingKey, Integer>();
            running.values().forEach(r -> inUse.merge(r.entry.offering(), r.entry.instanceCount(), Integer::sum));
            Set<RunningPlacement> placements = new HashSet<>();
            running.values().forEach(r -> placements.add(r.placement()));
            return new Capacity(List.of(OfferingState.of(P4D_EAST, 8, inUse.getOrDefault(P4D_EAST, 0)),
                    OfferingState.of(G6E_EAST, 8, inUse.getOrDefault(G6E_EAST, 0))), List.of(), teams.values(),
                    placements);
        }

        private static long secondsOf(Instant at) {
            return Duration.between(START, at).toSeconds();
        }
    }
}
