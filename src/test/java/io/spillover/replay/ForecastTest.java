package io.spillover.replay;

import static io.spillover.replay.Fixtures.CATALOG;
import static io.spillover.replay.Fixtures.EAST;
import static io.spillover.replay.Fixtures.G5;
import static io.spillover.replay.Fixtures.P4D;
import static io.spillover.replay.Fixtures.P5;
import static org.assertj.core.api.Assertions.assertThat;

import io.spillover.catalog.JobKind;
import io.spillover.placement.OfferingKey;
import io.spillover.placement.OfferingState;
import io.spillover.placement.PlacementRequest;
import io.spillover.placement.PlanState;
import io.spillover.placement.PlanStatus;
import io.spillover.placement.PreferenceEntry;
import io.spillover.placement.PreferenceList;
import io.spillover.placement.QueuePolicy;
import io.spillover.placement.QueuedRequest;
import io.spillover.placement.TeamState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The forecast: the production queue pass run forward from a situation, sampled over run times. */
class ForecastTest {

    static final Instant NOW = Instant.parse("2026-12-04T10:00:00Z");
    static final OfferingKey P5_EAST = OfferingKey.onDemand(EAST, P5);
    static final OfferingKey P4D_EAST = OfferingKey.onDemand(EAST, P4D);

    private final Forecast forecast = new Forecast(CATALOG);

    @Test
    void jobsBehindOneRunningJobStartOneAfterTheOtherWhenEveryRunIsKnownByItsLimit() {
        var situation = new Builder().offering(P5_EAST, 1, 1)
                .running("a", "t", entry(P5, 1), Duration.ofMinutes(30), runs(Duration.ofHours(2)))
                .waiting("b", "t", 120, runs(Duration.ofHours(1)), entry(P5, 1))
                .waiting("c", "t", 60, runs(Duration.ofHours(1)), entry(P5, 1))
                .build();

        Map<String, StartEstimate> estimates = forecast.estimate(situation).estimates();

        StartEstimate b = estimates.get("b");
        assertThat(List.of(b.p10(), b.p50(), b.p90())).containsOnly(NOW.plus(Duration.ofMinutes(90)));
        assertThat(b.entry()).isZero();
        assertThat(b.basis()).isEqualTo("first in line on ml.p5.48xlarge; 1 running there ends in ~1 h 30 min"
                + " by its maximum run time");
        assertThat(estimates.get("c").p50()).isEqualTo(NOW.plus(Duration.ofMinutes(150)));
        assertThat(estimates.get("c").basis()).startsWith("1 job ahead on ml.p5.48xlarge;");
    }

    @Test
    void aCallerThatSharesTheMachineGetsControlBetweenSamplesAndTheEstimatesAreTheSame() {
        var situation = new Builder().offering(P5_EAST, 1, 1)
                .running("a", "t", entry(P5, 1), Duration.ofMinutes(30), runs(Duration.ofHours(2)))
                .waiting("b", "t", 120, runs(Duration.ofHours(1)), entry(P5, 1))
                .build();
        var handedBack = new java.util.concurrent.atomic.AtomicInteger();

        var estimates = forecast.estimate(situation, handedBack::incrementAndGet).estimates();

        assertThat(handedBack).as("before each sample but the first").hasValue(Forecast.SAMPLES - 1);
        assertThat(estimates).isEqualTo(forecast.estimate(situation).estimates());
    }

    @Test
    void aJobStartsOnTheEntryThatFreesFirst() {
        var situation = new Builder().offering(P5_EAST, 1, 1).offering(P4D_EAST, 1, 1)
                .running("p5-holder", "t", entry(P5, 1), Duration.ZERO, runs(Duration.ofHours(5)))
                .running("p4d-holder", "t", entry(P4D, 1), Duration.ZERO, runs(Duration.ofHours(1)))
                .waiting("w", "t", 0, runs(Duration.ofHours(1)), entry(P5, 1), entry(P4D, 1))
                .build();

        StartEstimate w = forecast.estimate(situation).estimates().get("w");

        assertThat(w.p50()).isEqualTo(NOW.plus(Duration.ofHours(1)));
        assertThat(w.entry()).isEqualTo(1);
        assertThat(w.basis()).startsWith("first in line on ml.p4d.24xlarge (entry 1)");
    }

    @Test
    void runTimesDrawnFromHistoryGiveAnIntervalAndARunningJobHasRunPartOfItsRunAlready() {
        var pool = new RunPool(List.of(Duration.ofMinutes(10), Duration.ofMinutes(20), Duration.ofMinutes(40),
                Duration.ofMinutes(80), Duration.ofMinutes(160)), "team t's history");
        var situation = new Builder().offering(P5_EAST, 1, 1)
                .running("a", "t", entry(P5, 1), Duration.ofMinutes(30), new Runs(null, null, null, null, pool))
                .waiting("b", "t", 60, new Runs(null, null, null, null, pool), entry(P5, 1))
                .build();

        StartEstimate b = forecast.estimate(situation).estimates().get("b");

        // a has run 30 min: it ran 40, 80 or 160 in all, so ends in 10, 50 or 130 min
        assertThat(b.p10()).isBefore(b.p50());
        assertThat(b.p50()).isBefore(b.p90());
        assertThat(b.p10()).isAfterOrEqualTo(NOW.plus(Duration.ofMinutes(10)));
        assertThat(b.p90()).isBeforeOrEqualTo(NOW.plus(Duration.ofMinutes(130)));
        assertThat(b.basis()).endsWith("by team t's history");
    }

    @Test
    void aJobLongerThanAnyInItsHistoryIsExpectedToRunAsLongAgainAndNeverPastItsLimit() {
        var pool = new RunPool(List.of(Duration.ofMinutes(10)), "team t's history");
        var situation = new Builder().offering(P5_EAST, 1, 1)
                .running("a", "t", entry(P5, 1), Duration.ofHours(1), new Runs(Duration.ofMinutes(90), null, null,
                        null, pool))
                .waiting("b", "t", 60, runs(Duration.ofHours(1)), entry(P5, 1))
                .build();

        StartEstimate b = forecast.estimate(situation).estimates().get("b");

        // as long again would be 1 to 2 h in all; its limit stops it at 90 min
        assertThat(b.p10()).isAfter(NOW);
        assertThat(b.p90()).isBeforeOrEqualTo(NOW.plus(Duration.ofMinutes(30)));
    }

    @Test
    void anEstimatePastTheJobsMaximumPendingTimeSaysSo() {
        var situation = new Builder().offering(P5_EAST, 1, 1)
                .running("a", "t", entry(P5, 1), Duration.ZERO, runs(Duration.ofHours(3)))
                .waiting("b", "t", 0, runs(Duration.ofHours(1)), NOW.plus(Duration.ofHours(2)), entry(P5, 1))
                .build();

        StartEstimate b = forecast.estimate(situation).estimates().get("b");

        assertThat(b.pastDeadline()).isTrue();
        assertThat(b.basis()).endsWith("; its maximum pending time runs out first, at 2026-12-04 12:00 UTC");
    }

    @Test
    void aJobOnAScheduledPlanStartsWhenThePlanDoesAndOneThatCanNeverStartHasNoEstimate() {
        var plan = new PlanState("h100-q4", P5, EAST, PlanStatus.SCHEDULED, NOW.plus(Duration.ofHours(4)),
                NOW.plus(Duration.ofDays(4)), Set.of("t"));
        var situation = new Builder().offering(plan.offering(), 2, 0).plan(plan)
                .waiting("planned", "t", 0, runs(Duration.ofHours(1)), new PreferenceEntry(P5, 2, EAST, "h100-q4"))
                .waiting("too-big", "t", 0, runs(Duration.ofHours(1)), new PreferenceEntry(P5, 3, EAST, "h100-q4"))
                .build();

        Map<String, StartEstimate> estimates = forecast.estimate(situation).estimates();

        assertThat(estimates.get("planned").p50()).isEqualTo(NOW.plus(Duration.ofHours(4)));
        assertThat(estimates.get("too-big").p50()).isNull();
        assertThat(estimates.get("too-big").entry()).isNull();
        assertThat(estimates.get("too-big").basis()).startsWith("no entry can start within 60 d as things stand");
    }

    @Test
    void aReleaseMovesTheEstimatesBehindItEarlier() {
        var pool = new RunPool(List.of(Duration.ofMinutes(30), Duration.ofMinutes(60), Duration.ofMinutes(90)),
                "team t's history");
        Builder before = new Builder().offering(P5_EAST, 1, 1)
                .running("holder", "t", entry(P5, 1), Duration.ofMinutes(5), new Runs(null, null, null, null, pool))
                .waiting("next", "t", 20, new Runs(null, null, null, null, pool), entry(P5, 1))
                .waiting("last", "t", 10, new Runs(null, null, null, null, pool), entry(P5, 1));
        Builder after = new Builder().offering(P5_EAST, 1, 1)
                .running("next", "t", entry(P5, 1), Duration.ZERO, new Runs(null, null, null, null, pool))
                .waiting("last", "t", 10, new Runs(null, null, null, null, pool), entry(P5, 1));

        StartEstimate first = forecast.estimate(before.build()).estimates().get("last");
        StartEstimate then = forecast.estimate(after.build()).estimates().get("last");

        assertThat(then.p50()).isBefore(first.p50());
        assertThat(then.p90()).isBefore(first.p90());
    }

    @Test
    void shortestExpectedRunFirstLetsAShortJobSubmittedLaterGoFirst() {
        var situation = new Builder().offering(P5_EAST, 1, 1)
                .running("a", "t", entry(P5, 1), Duration.ZERO, runs(Duration.ofHours(1)))
                .waiting("long", "t", 600, runs(Duration.ofHours(10)), entry(P5, 1))
                .waiting("short", "t", 60, runs(Duration.ofMinutes(10)), entry(P5, 1))
                .build();

        Map<String, StartEstimate> estimates = forecast.estimate(situation).estimates();

        assertThat(estimates.get("short").p50()).isEqualTo(NOW.plus(Duration.ofHours(1)));
        assertThat(estimates.get("long").p50()).isEqualTo(NOW.plus(Duration.ofMinutes(70)));
    }

    @Test
    void arrivalsCompeteWithTheWaitingJobsButGetNoEstimate() {
        var situation = new Builder().offering(P5_EAST, 1, 1)
                .running("a", "t", entry(P5, 1), Duration.ZERO, runs(Duration.ofHours(1)))
                .waiting("long", "t", 0, runs(Duration.ofHours(10)), entry(P5, 1))
                .arrival("later", "t", Duration.ofMinutes(30), runs(Duration.ofMinutes(10)), entry(P5, 1))
                .build();

        Map<String, StartEstimate> estimates = forecast.estimate(situation).estimates();

        assertThat(estimates).containsOnlyKeys("long");
        assertThat(estimates.get("long").p50()).isEqualTo(NOW.plus(Duration.ofMinutes(70)));
    }

    @Test
    void theSameSituationGivesTheSameEstimates() {
        Situation<String> situation = randomSituation(3, 60);

        assertThat(forecast.estimate(situation).estimates()).isEqualTo(forecast.estimate(situation).estimates());
    }

    @Test
    void handingEachPassOnlyTheFirstJobsOfEachLineChangesNoStart() {
        for (long seed = 1; seed <= 6; seed++) {
            Situation<String> situation = randomSituation(seed, 150);
            for (QueuePolicy policy : List.of(QueuePolicy.DEFAULT, QueuePolicy.FIRST_FIT,
                    QueuePolicy.DEFAULT.withReserveAfter(Duration.ofMinutes(20)),
                    QueuePolicy.DEFAULT.withFallbackAfter(Duration.ofMinutes(10)))) {
                var withPolicy = new Situation<>(situation.now(), policy, situation.offerings(), situation.plans(),
                        situation.teams(), situation.shares(), situation.sweepRuns(), situation.running(),
                        situation.waiting(), situation.arrivals());
                var fast = new Forecast(CATALOG, 4, Forecast.HORIZON, false).estimate(withPolicy);
                var exact = new Forecast(CATALOG, 4, Forecast.HORIZON, true).estimate(withPolicy);

                assertThat(fast.estimates()).as("seed %d, %s", seed, policy).isEqualTo(exact.estimates());
                assertThat(fast.decisions()).isLessThan(exact.decisions());
            }
        }
    }

    @Test
    void tenThousandWaitingJobsAreEstimatedInWellUnderASecond() {
        var pool = new RunPool(List.of(Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(3)),
                "the platform's history");
        var builder = new Builder().offering(P5_EAST, 1, 1)
                .running("holder", "holders", entry(P5, 1), Duration.ofMinutes(5), new Runs(null, null, null, null, pool));
        for (int i = 0; i < 10_000; i++) {
            builder.waiting("w%05d".formatted(i), "t", 10_000 - i, new Runs(null, null, "burst", null, pool), entry(P5, 1));
        }
        Situation<String> situation = builder.build();
        forecast.estimate(situation); // warm up
        long start = System.nanoTime();
        var result = forecast.estimate(situation);
        long millis = (System.nanoTime() - start) / 1_000_000;

        System.out.printf("10,000 waiting: %d ms, %d passes, %d decisions%n", millis, result.passes(), result.decisions());
        assertThat(result.estimates()).hasSize(10_000);
        assertThat(result.estimates().get("w09999").p50()).isAfter(result.estimates().get("w00000").p50());
    }

    private static Situation<String> randomSituation(long seed, int waiting) {
        var random = new SplittableRandom(seed);
        var builder = new Builder().offering(P5_EAST, 4, 0).offering(P4D_EAST, 6, 0)
                .offering(OfferingKey.onDemand(EAST, G5), 3, 0);
        var pools = List.of(
                new RunPool(List.of(Duration.ofMinutes(5), Duration.ofMinutes(30), Duration.ofHours(3)), "a"),
                new RunPool(List.of(Duration.ofMinutes(50), Duration.ofHours(2)), "b"), RunPool.NONE);
        var lists = List.of(List.of(entry(P5, 1), entry(P4D, 1)), List.of(entry(P4D, 2), entry(G5, 2)),
                List.of(entry(P5, 2)), List.of(entry(G5, 1), entry(P5, 1), entry(P4D, 1)));
        Map<String, Integer> used = new HashMap<>();
        for (int r = 0; r < 6; r++) {
            List<PreferenceEntry> list = lists.get(random.nextInt(lists.size()));
            PreferenceEntry entry = list.get(0);
            builder.running("r" + r, "team-" + random.nextInt(3), entry, Duration.ofMinutes(random.nextInt(120)),
                    new Runs(null, null, null, null, pools.get(random.nextInt(2))));
            used.merge(entry.instanceType(), entry.instanceCount(), Integer::sum);
        }
        for (int i = 0; i < waiting; i++) {
            List<PreferenceEntry> list = lists.get(random.nextInt(lists.size()));
            Duration max = random.nextInt(3) == 0 ? Duration.ofMinutes(20 + random.nextInt(300)) : null;
            String sweep = random.nextInt(2) == 0 ? "s" + random.nextInt(4) : null;
            builder.waiting("w%03d".formatted(i), "team-" + random.nextInt(3), random.nextInt(20) * 60L,
                    new Runs(max, null, sweep, Duration.ofMinutes(40), pools.get(random.nextInt(pools.size()))),
                    list.toArray(PreferenceEntry[]::new));
        }
        builder.sweepRuns.put("s0", List.of(Duration.ofMinutes(12), Duration.ofMinutes(14)));
        return builder.build();
    }

    static PreferenceEntry entry(String type, int count) {
        return new PreferenceEntry(type, count, EAST, null);
    }

    static Runs runs(Duration maxRuntime) {
        return new Runs(maxRuntime, null, null, null, RunPool.NONE);
    }

    /** A situation at {@link #NOW}: teams with room for everything, offerings in use by the running jobs given. */
    static final class Builder {
        final Map<OfferingKey, int[]> offerings = new java.util.LinkedHashMap<>();
        final List<PlanState> plans = new ArrayList<>();
        final List<Situation.Running<String>> running = new ArrayList<>();
        final List<Situation.Waiting<String>> waiting = new ArrayList<>();
        final List<Situation.Waiting<String>> arrivals = new ArrayList<>();
        final Map<String, List<Duration>> sweepRuns = new HashMap<>();
        final java.util.Set<String> teams = new java.util.TreeSet<>();
        final Map<String, Map<String, Integer>> teamUse = new HashMap<>();

        Builder offering(OfferingKey key, int total, int inUse) {
            offerings.put(key, new int[] {total, inUse});
            return this;
        }

        Builder plan(PlanState plan) {
            plans.add(plan);
            return this;
        }

        Builder running(String id, String team, PreferenceEntry entry, Duration ranFor, Runs runs) {
            teams.add(team);
            running.add(new Situation.Running<>(id, team, entry, ranFor, false, runs));
            teamUse.computeIfAbsent(team, t -> new HashMap<>()).merge(entry.instanceType(), entry.instanceCount(),
                    Integer::sum);
            return this;
        }

        Builder waiting(String id, String team, long submittedSecondsAgo, Runs runs, PreferenceEntry... entries) {
            return waiting(id, team, submittedSecondsAgo, runs, null, entries);
        }

        Builder waiting(String id, String team, long submittedSecondsAgo, Runs runs, Instant deadline,
                        PreferenceEntry... entries) {
            teams.add(team);
            waiting.add(new Situation.Waiting<>(queued(id, team, NOW.minusSeconds(submittedSecondsAgo), entries), runs,
                    deadline));
            return this;
        }

        Builder arrival(String id, String team, Duration in, Runs runs, PreferenceEntry... entries) {
            teams.add(team);
            arrivals.add(new Situation.Waiting<>(queued(id, team, NOW.plus(in), entries), runs, null));
            return this;
        }

        private static QueuedRequest<String> queued(String id, String team, Instant at, PreferenceEntry... entries) {
            return new QueuedRequest<>(id, new PlacementRequest(team, JobKind.TRAINING,
                    new PreferenceList(List.of(entries))), 0, at);
        }

        Situation<String> build() {
            // the running jobs hold what they run on, at least
            var used = new HashMap<OfferingKey, Integer>();
            running.forEach(r -> used.merge(r.entry().offering(), r.entry().instanceCount(), Integer::sum));
            var held = new ArrayList<OfferingState>();
            offerings.forEach((key, counts) -> held.add(OfferingState.of(key, counts[0],
                    Math.max(counts[1], used.getOrDefault(key, 0)))));
            Map<String, Integer> limits = Map.of(P5, 100, P4D, 100, G5, 100);
            var teamStates = teams.stream().map(team -> new TeamState(team, limits,
                    teamUse.getOrDefault(team, Map.of()), null, 0, null, 0, false)).toList();
            return new Situation<>(NOW, QueuePolicy.DEFAULT, held, plans, teamStates, Map.of(), sweepRuns, running,
                    waiting, arrivals);
        }
    }
}
