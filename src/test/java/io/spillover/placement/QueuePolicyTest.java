package io.spillover.placement;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillover.catalog.Catalog;
import io.spillover.catalog.JobKind;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The queue policy's rules, one at a time: precedence, patience, fair share, shortest first, holds. */
class QueuePolicyTest {

    static final Catalog CATALOG = PlacementTest.CATALOG;
    static final Instant NOW = Instant.parse("2026-12-02T10:00:00Z");
    static final String P4D = "ml.p4d.24xlarge";
    static final String G6E = "ml.g6e.48xlarge";
    static final String PLAN = "h100-q4";
    static final String P5 = "ml.p5.48xlarge";

    private static final QueuePolicy NONE = QueuePolicy.FIRST_FIT;

    @Test
    void precedenceGivesAFreedOfferingToTheJobWhoseFirstChoiceItIsOverAnOlderJobsFallback() {
        var older = job("older", "vision", 0, P4D, 1, G6E, 1);
        var younger = job("younger", "vision", 60, G6E, 1);
        Capacity capacity = capacity(0, 1);

        assertThat(selections(pass(NONE).decide(List.of(older, younger), capacity(0, 1), NOW)))
                .containsExactly("older:1", "younger:-");
        var outcomes = pass(NONE.withPrecedence(true)).decide(List.of(older, younger), capacity, NOW);

        assertThat(selections(outcomes)).containsExactly("older:-", "younger:0");
        assertThat(outcomes.get(0).decision().entries().get(1).reason()).isEqualTo("on-demand ml.g6e.48xlarge in"
                + " us-east-1 has 0 of 1 instances free, 1 needed; job younger went first: it is that job's entry 0"
                + " and this job's entry 1");
    }

    @Test
    void precedenceLapsesOnceAJobHasWaitedAsLongAsItsExpectedRun() {
        // both expect 1 h; the older has waited 2 h for its p4d (response ratio 3), the younger has just come
        var older = new QueuedRequest<>("older", request("vision", P4D, 1, G6E, 1), 0, NOW.minus(Duration.ofHours(2)),
                null, Duration.ofHours(1));
        var younger = new QueuedRequest<>("younger", request("vision", G6E, 1), 0, NOW, null, Duration.ofHours(1));

        assertThat(selections(pass(QueuePolicy.DEFAULT.withPrecedenceLapse(0)).decide(List.of(older, younger),
                fullP4d(1), NOW))).containsExactly("older:-", "younger:0");
        var outcomes = pass(QueuePolicy.DEFAULT).decide(List.of(older, younger), fullP4d(1), NOW);

        assertThat(selections(outcomes)).containsExactly("older:1", "younger:-");
        assertThat(outcomes.get(1).decision().entries().get(0).reason()).isEqualTo("on-demand ml.g6e.48xlarge in"
                + " us-east-1 has 0 of 1 instances free, 1 needed");
    }

    @Test
    void aJobThatHasWaitedLessThanItsExpectedRunStillYieldsItsFallback() {
        // 50 min of an expected hour: response ratio 1.83, below the lapse at 2
        var older = new QueuedRequest<>("older", request("vision", P4D, 1, G6E, 1), 0,
                NOW.minus(Duration.ofMinutes(50)), null, Duration.ofHours(1));
        var younger = new QueuedRequest<>("younger", request("vision", G6E, 1), 0, NOW, null, Duration.ofHours(1));

        var outcomes = pass(QueuePolicy.DEFAULT).decide(List.of(older, younger), fullP4d(1), NOW);

        assertThat(selections(outcomes)).containsExactly("older:-", "younger:0");
        assertThat(outcomes.get(0).decision().entries().get(1).reason()).endsWith("job younger went first: it is that"
                + " job's entry 0 and this job's entry 1");
    }

    @Test
    void aLapsedJobIsNotToldItYieldedToAnotherJobsFirstChoice() {
        // both waited 3 h: the shorter expected run ranks first, and the longer one's reason names no precedence
        var shorter = new QueuedRequest<>("shorter", request("vision", G6E, 1), 0, NOW.minus(Duration.ofHours(3)),
                null, Duration.ofHours(1));
        var longer = new QueuedRequest<>("longer", request("vision", P4D, 1, G6E, 1), 0,
                NOW.minus(Duration.ofHours(3)), null, Duration.ofHours(2));

        var outcomes = pass(QueuePolicy.DEFAULT).decide(List.of(longer, shorter), fullP4d(1), NOW);

        assertThat(selections(outcomes)).containsExactly("longer:-", "shorter:0");
        assertThat(outcomes.get(0).decision().entries().get(1).reason()).isEqualTo("on-demand ml.g6e.48xlarge in"
                + " us-east-1 has 0 of 1 instances free, 1 needed");
    }

    @Test
    void aPrecedenceLapseBelowOneIsRefused() {
        org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
                .isThrownBy(() -> QueuePolicy.DEFAULT.withPrecedenceLapse(0.5))
                .withMessage("precedenceLapse must be 0 (never) or a response ratio >= 1");
    }

    @Test
    void aPatientJobWaitsForItsFirstChoiceAndSaysHowLongBeforeFallingBack() {
        var job = job("patient", "vision", -240, P4D, 1, G6E, 1); // waited 4 min
        QueuePass pass = pass(NONE.withFallbackAfter(Duration.ofMinutes(10)));

        QueuePass.Outcome<String> outcome = pass.decide(List.of(job), fullP4d(1), NOW).get(0);

        assertThat(outcome.decision().isSelected()).isFalse();
        assertThat(outcome.decision().entries().get(1).reason())
                .isEqualTo("waiting 6 min more for entry 0 before taking entry 1 (patience 10 min per entry)");
        assertThat(outcome.revisitAt()).isEqualTo(NOW.plusSeconds(360));
        assertThat(selections(pass.decide(List.of(job), fullP4d(1), NOW.plusSeconds(360))))
                .containsExactly("patient:1");
    }

    @Test
    void patienceDoesNotWaitForAnEarlierEntryThatCouldNeverFit() {
        // 3 p4d asked of an offering of 2: waiting for it is waiting for nothing
        var job = job("realistic", "vision", 0, P4D, 3, G6E, 1);

        var outcome = pass(NONE.withFallbackAfter(Duration.ofMinutes(10))).decide(List.of(job), capacity(2, 1), NOW);

        assertThat(selections(outcome)).containsExactly("realistic:1");
    }

    @Test
    void aJobWithoutPatienceTakesTheFirstEntryThatFitsWhateverThePlatformDefault() {
        var firstFit = new QueuedRequest<>("eager", request("vision", P4D, 1, G6E, 1), 0, NOW, Duration.ZERO, null);

        assertThat(selections(pass(QueuePolicy.DEFAULT.withFallbackAfter(Duration.ofMinutes(10)))
                .decide(List.of(firstFit), fullP4d(1), NOW)))
                .containsExactly("eager:1");
    }

    @Test
    void aLongJobWaitsForItsFirstChoiceInProportionToItsRunWhileAShortOneFallsBackAtOnce() {
        // both submitted 2 min ago; 1 % of 10 h is 6 min, of 1 h 36 s
        var longRun = new QueuedRequest<>("long", request("vision", P4D, 1, G6E, 1), 0, NOW.minusSeconds(120), null,
                Duration.ofHours(10));
        var shortRun = new QueuedRequest<>("short", request("vision", P4D, 1, G6E, 1), 0, NOW.minusSeconds(120), null,
                Duration.ofHours(1));
        QueuePass pass = pass(QueuePolicy.DEFAULT);

        var outcomes = pass.decide(List.of(longRun, shortRun), fullP4d(2), NOW);

        assertThat(selections(outcomes)).containsExactly("long:-", "short:1");
        assertThat(outcomes.get(0).decision().entries().get(1).reason()).isEqualTo("waiting 4 min more for entry 0"
                + " before taking entry 1 (patience 6 min per entry, 1.0 % of its expected run of 10 h)");
        assertThat(outcomes.get(0).revisitAt()).isEqualTo(NOW.plusSeconds(240));
    }

    @Test
    void patienceNeverHoldsBackAnEntryOnATrainingPlan() {
        var job = new QueuedRequest<>("planned", new PlacementRequest("vision", JobKind.TRAINING, new PreferenceList(List.of(
                new PreferenceEntry(P4D, 1, "us-east-1", null),
                new PreferenceEntry(P5, 1, "us-west-2", PLAN)))), 0, NOW, null, null);

        var outcome = pass(QueuePolicy.DEFAULT.withFallbackAfter(Duration.ofMinutes(10))).decide(List.of(job),
                fullP4d(0), NOW).get(0);

        assertThat(outcome.decision().selected()).map(EntryVerdict::index).contains(1);
    }

    @Test
    void withFairShareTheTeamFurthestBelowItsShareGoesFirst() {
        var heavy = job("heavy", "vision", 0, P4D, 1);
        var light = job("light", "nlp", 60, P4D, 1);
        Map<String, TeamShare> shares = Map.of("vision", new TeamShare(1, 1_000_000), "nlp", new TeamShare(1, 10));

        assertThat(selections(pass(NONE).decide(List.of(heavy, light), capacity(1, 0), shares, NOW).outcomes()))
                .containsExactly("heavy:0", "light:-");
        var outcomes = pass(NONE.withFairShare(true)).decide(List.of(heavy, light), capacity(1, 0), shares, NOW)
                .outcomes();
        assertThat(selections(outcomes)).containsExactly("heavy:-", "light:0");
        assertThat(outcomes.get(0).decision().entries().get(0).reason()).isEqualTo("on-demand ml.p4d.24xlarge in"
                + " us-east-1 has 0 of 1 instances free, 1 needed; team nlp went first: team vision is further above"
                + " its fair share");
    }

    @Test
    void weightScalesAShareAndEachBookingCountsAtOnceInThePass() {
        // equal usage, but vision weighs 3: it takes turns until its usage per weight passes nlp's
        var queue = new ArrayList<QueuedRequest<String>>();
        for (int i = 0; i < 4; i++) {
            queue.add(job("v" + i, "vision", 2 * i, P4D, 1));
            queue.add(job("n" + i, "nlp", 2 * i + 1, P4D, 1));
        }
        Map<String, TeamShare> shares = Map.of("vision", new TeamShare(3, 0), "nlp", new TeamShare(1, 0));

        var booked = pass(NONE.withFairShare(true)).decide(queue, capacity(4, 0), shares, NOW).booked();

        assertThat(booked).extracting(QueuedRequest::id).containsExactly("v0", "n0", "v1", "v2");
    }

    @Test
    void priorityStillRanksJobsWithinATeamUnderFairShare() {
        var low = job("low", "vision", 0, P4D, 1);
        var high = new QueuedRequest<>("high", request("vision", P4D, 1), 5, NOW.plusSeconds(60));

        assertThat(selections(pass(QueuePolicy.DEFAULT.withFairShare(true)).decide(List.of(low, high), capacity(1, 0), NOW)))
                .containsExactly("high:0", "low:-");
    }

    @Test
    void shortestFirstPrefersTheShortExpectedRunUntilTheLongOneHasWaitedLongEnough() {
        var longRun = new QueuedRequest<>("long", request("vision", P4D, 1), 0, NOW.minusSeconds(3600), null,
                Duration.ofHours(10));
        var shortRun = new QueuedRequest<>("short", request("vision", P4D, 1), 0, NOW.minusSeconds(60), null,
                Duration.ofMinutes(10));
        QueuePass pass = pass(NONE.withShortestFirst(true));

        // response ratios a minute later: long (61 min + 10 h) / 10 h = 1.1, short (2 min + 10 min) / 10 min = 1.2
        assertThat(selections(pass.decide(List.of(longRun, shortRun), capacity(1, 0), NOW.plusSeconds(60))))
                .containsExactly("long:-", "short:0");
        var veryOld = new QueuedRequest<>("long", request("vision", P4D, 1), 0, NOW.minusSeconds(20 * 3600), null,
                Duration.ofHours(10));
        assertThat(selections(pass.decide(List.of(veryOld, shortRun), capacity(1, 0), NOW)))
                .containsExactly("long:0", "short:-");
    }

    @Test
    void aLongWaitingJobOfSeveralInstancesHoldsWhatFreesSoSmallerJobsCannotKeepTakingIt() {
        var big = new QueuedRequest<>("big", request("vision", P4D, 3), 0, NOW.minus(Duration.ofHours(25)));
        var small = job("small", "nlp", 0, P4D, 1);
        QueuePass pass = pass(NONE.withReserveAfter(Duration.ofDays(1)));

        QueuePass.Result<String> result = pass.decide(List.of(big, small), p4dInUse(4, 2), Map.of(), NOW);

        assertThat(selections(result.outcomes())).containsExactly("big:-", "small:-");
        assertThat(result.holds()).containsEntry(OfferingKey.onDemand("us-east-1", P4D), "big");
        assertThat(result.outcomes().get(1).decision().entries().get(0).reason())
                .isEqualTo("on-demand ml.p4d.24xlarge in us-east-1 has 0 of 4 instances free (2 held for job big,"
                        + " waiting since 2026-12-01 09:00:00 UTC), 1 needed");
        assertThat(result.outcomes().get(0).decision().entries().get(0).reason())
                .isEqualTo("on-demand ml.p4d.24xlarge in us-east-1 has 2 of 4 instances free, 3 needed; 2 held for"
                        + " this job, which has waited past 24 h");
        assertThat(selections(pass.decide(List.of(big, small), p4dInUse(4, 1), Map.of(), NOW).outcomes()))
                .containsExactly("big:0", "small:-");
    }

    @Test
    void aJobHoldsOnlyOnceItHasAlsoWaitedAsLongAsItsExpectedRun() {
        // both have waited 25 h for three p4d; one expects to run 3 days, the other an hour
        var days = new QueuedRequest<>("days", request("vision", P4D, 3), 0, NOW.minus(Duration.ofHours(25)), null,
                Duration.ofDays(3));
        var hour = new QueuedRequest<>("hour", request("nlp", P4D, 3), 0, NOW.minus(Duration.ofHours(25)), null,
                Duration.ofHours(1));
        QueuePass pass = pass(NONE.withReserveAfter(Duration.ofDays(1)).withHoldAfterRun(true));

        assertThat(pass.decide(List.of(days), p4dInUse(4, 2), Map.of(), NOW).holds()).isEmpty();
        QueuePass.Result<String> result = pass.decide(List.of(days, hour), p4dInUse(4, 2), Map.of(), NOW);
        assertThat(result.holds()).containsEntry(OfferingKey.onDemand("us-east-1", P4D), "hour");
        assertThat(result.outcomes().get(1).decision().entries().get(0).reason())
                .isEqualTo("on-demand ml.p4d.24xlarge in us-east-1 has 2 of 4 instances free, 3 needed; 2 held for"
                        + " this job, which has waited past 24 h and its expected run");
        assertThat(pass(NONE.withReserveAfter(Duration.ofDays(1))).decide(List.of(days), p4dInUse(4, 2), Map.of(),
                NOW).holds()).containsEntry(OfferingKey.onDemand("us-east-1", P4D), "days");
        assertThat(pass.decide(List.of(days), p4dInUse(4, 2), Map.of(), NOW.plus(Duration.ofDays(2))).holds())
                .containsEntry(OfferingKey.onDemand("us-east-1", P4D), "days");
    }

    @Test
    void aStrictFifoTeamsHeadHoldsBackItsLaterJobsUnderEveryRule() {
        var head = job("head", "vision", 0, P4D, 4);
        var later = job("later", "vision", 60, P4D, 1);
        Capacity capacity = new Capacity(
                List.of(OfferingState.of(OfferingKey.onDemand("us-east-1", P4D), 2, 0)), List.of(),
                List.of(new TeamState("vision", Map.of(P4D, 8), Map.of(), null, 0, null, 0, true)));

        var outcomes = pass(QueuePolicy.DEFAULT).decide(List.of(head, later), capacity, NOW);

        assertThat(selections(outcomes)).containsExactly("head:-", "later:-");
        assertThat(outcomes.get(1).decision().outcome()).isEqualTo(Decision.Outcome.HELD_BACK);
    }

    @Test
    void aStrictFifoTeamStartsItsJobsInQueueOrderEvenWhenAShorterOneWaitsBehind() {
        // response ratios: long (2 min + 10 h) / 10 h = 1.003, short (1 min + 1 min) / 1 min = 2
        var longFirst = new QueuedRequest<>("long", request("vision", P4D, 1), 0, NOW.minusSeconds(120), null,
                Duration.ofHours(10));
        var shortLater = new QueuedRequest<>("short", request("vision", P4D, 1), 0, NOW.minusSeconds(60), null,
                Duration.ofMinutes(1));
        Capacity capacity = new Capacity(
                List.of(OfferingState.of(OfferingKey.onDemand("us-east-1", P4D), 1, 0)), List.of(),
                List.of(new TeamState("vision", Map.of(P4D, 8), Map.of(), null, 0, null, 0, true)));

        var outcomes = pass(QueuePolicy.DEFAULT).decide(List.of(shortLater, longFirst), capacity, NOW);

        assertThat(selections(outcomes)).containsExactly("long:0", "short:-");
    }

    @Test
    void theQueueOrderComparesUuidsAsPostgresqlDoesUnsignedByteByByte() {
        UUID low = UUID.fromString("7fffffff-ffff-ffff-ffff-ffffffffffff");
        UUID high = UUID.fromString("80000000-0000-0000-0000-000000000000"); // first bit set: negative in Java
        var a = new QueuedRequest<>(high, request("vision", P4D, 1), 0, NOW);
        var b = new QueuedRequest<>(low, request("vision", P4D, 1), 0, NOW);

        assertThat(high.compareTo(low)).isNegative();
        assertThat(QueuedRequest.<UUID>queueOrder().compare(a, b)).isPositive();
    }

    @Test
    void fairShareUsageDecaysByHalfEachHalfLife() {
        Duration day = Duration.ofDays(1);

        assertThat(TeamShare.decay(100, NOW, NOW.plus(day), day)).isEqualTo(50.0);
        assertThat(TeamShare.decay(100, NOW, NOW.plus(day.multipliedBy(2)), day)).isEqualTo(25.0);
        // a short run counts about its length; one held for ever tends to one mean life (h / ln 2)
        assertThat(TeamShare.ofRun(8, NOW, NOW.plusSeconds(60), day)).isCloseTo(480.0, org.assertj.core.data.Offset.offset(1.0));
        assertThat(TeamShare.charge(1, null, day)).isEqualTo(TeamShare.meanLife(day));
    }

    private static QueuePass pass(QueuePolicy policy) {
        return new QueuePass(new Placement(CATALOG), policy);
    }

    private static List<String> selections(List<QueuePass.Outcome<String>> outcomes) {
        return outcomes.stream().map(o -> o.job().id() + ":"
                + o.decision().selected().map(v -> String.valueOf(v.index())).orElse("-")).toList();
    }

    /** On-demand p4d and g6e in us-east-1, an H100 plan in us-west-2 for vision; two teams with room. */
    private static Capacity capacity(int p4d, int g6e) {
        return new Capacity(
                List.of(OfferingState.of(OfferingKey.onDemand("us-east-1", P4D), p4d, 0),
                        OfferingState.of(OfferingKey.onDemand("us-east-1", G6E), g6e, 0),
                        OfferingState.of(OfferingKey.plan("us-west-2", P5, PLAN), 2, 0)),
                List.of(new PlanState(PLAN, P5, "us-west-2", PlanStatus.ACTIVE, NOW.minusSeconds(3600), null,
                        java.util.Set.of("vision"))),
                List.of(new TeamState("vision", Map.of(P4D, 8, G6E, 8, P5, 8), Map.of(), null, 0, null, 0, false),
                        new TeamState("nlp", Map.of(P4D, 8, G6E, 8), Map.of(), null, 0, null, 0, false)));
    }

    /** Like {@link #capacity}, with the one p4d in use. */
    private static Capacity fullP4d(int g6e) {
        return new Capacity(
                List.of(OfferingState.of(OfferingKey.onDemand("us-east-1", P4D), 1, 1),
                        OfferingState.of(OfferingKey.onDemand("us-east-1", G6E), g6e, 0),
                        OfferingState.of(OfferingKey.plan("us-west-2", P5, PLAN), 2, 0)),
                List.of(new PlanState(PLAN, P5, "us-west-2", PlanStatus.ACTIVE, NOW.minusSeconds(3600), null,
                        java.util.Set.of("vision"))),
                List.of(new TeamState("vision", Map.of(P4D, 8, G6E, 8, P5, 8), Map.of(), null, 0, null, 0, false)));
    }

    private static Capacity p4dInUse(int total, int inUse) {
        return new Capacity(List.of(OfferingState.of(OfferingKey.onDemand("us-east-1", P4D), total, inUse)), List.of(),
                List.of(new TeamState("vision", Map.of(P4D, 8), Map.of(), null, 0, null, 0, false),
                        new TeamState("nlp", Map.of(P4D, 8), Map.of(), null, 0, null, 0, false)));
    }

    /** A job submitted {@code second} seconds after NOW: pairs of (instance type, count), in order. */
    private static QueuedRequest<String> job(String id, String team, int second, Object... entries) {
        return new QueuedRequest<>(id, request(team, entries), 0, NOW.plusSeconds(second));
    }

    private static PlacementRequest request(String team, Object... entries) {
        var list = new ArrayList<PreferenceEntry>();
        for (int i = 0; i < entries.length; i += 2) {
            list.add(new PreferenceEntry((String) entries[i], (Integer) entries[i + 1], "us-east-1", null));
        }
        return new PlacementRequest(team, JobKind.TRAINING, new PreferenceList(list));
    }
}
