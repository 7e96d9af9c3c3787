package io.spillover.placement;

import static io.spillover.placement.Decision.Outcome.NOTHING_FITS;
import static io.spillover.placement.Decision.Outcome.SELECTED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import io.spillover.catalog.Catalog;
import io.spillover.catalog.JobKind;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class PlacementTest {

    static final Catalog CATALOG =
            Catalog.readCsv(PlacementTest.class.getResourceAsStream("/catalog/instance-types.csv"));
    static final Instant NOW = Instant.parse("2026-12-02T10:00:00Z");

    static final String TEAM = "vision";
    static final String EAST = "us-east-1";
    static final String WEST = "us-west-2";
    static final String P5 = "ml.p5.48xlarge";
    static final String P4D = "ml.p4d.24xlarge";
    static final String G6E = "ml.g6e.48xlarge";
    static final String G6 = "ml.g6.48xlarge";
    static final String G5 = "ml.g5.48xlarge";

    /** Accelerators per instance, from the catalog. */
    static final int P5_ACCELERATORS = CATALOG.get(P5).acceleratorCount();
    static final int P4D_ACCELERATORS = CATALOG.get(P4D).acceleratorCount();

    static final Map<String, Integer> LIMITS = Map.of(P5, 8, P4D, 8, G6E, 16, G6, 4, G5, 4);

    static final PreferenceEntry P5_X2 = new PreferenceEntry(P5, 2, EAST, null);
    static final PreferenceEntry P4D_X4 = new PreferenceEntry(P4D, 4, EAST, null);
    static final PreferenceEntry G6E_X8 = new PreferenceEntry(G6E, 8, EAST, null);
    static final PreferenceEntry P5_X2_ON_PLAN = new PreferenceEntry(P5, 2, EAST, "h100-q4");

    /** "2 × p5 else 4 × p4d else 8 × g6e", all on demand. */
    static final PlacementRequest THREE_WAY = training(P5_X2, P4D_X4, G6E_X8);
    /** "2 × p5 on plan h100-q4, else 4 × p4d on demand". */
    static final PlacementRequest PLAN_FIRST = training(P5_X2_ON_PLAN, P4D_X4);

    private final Placement placement = new Placement(CATALOG);

    // --- first fit (§3.3.1)

    @Test
    void selectsFirstEntryThatFitsAndNotesLaterEntriesThatFitToo() {
        Capacity capacity = capacity(List.of(onDemand(P5, 8, 0), onDemand(P4D, 8, 0), onDemand(G6E, 16, 0)),
                List.of(), team());

        assertThat(placement.decide(THREE_WAY, capacity, NOW)).isEqualTo(new Decision(SELECTED, List.of(
                new EntryVerdict(0, P5, 2, EAST, "on-demand", true, "selected"),
                new EntryVerdict(1, P4D, 4, EAST, "on-demand", true, "fits too; entry 0 comes first"),
                new EntryVerdict(2, G6E, 8, EAST, "on-demand", true, "fits too; entry 0 comes first"))));
    }

    @Test
    void fallsBackToNextEntryWhenFirstOfferingIsFull() {
        Capacity capacity = capacity(List.of(onDemand(P5, 4, 3), onDemand(P4D, 8, 0), onDemand(G6E, 16, 0)),
                List.of(), team());

        Decision decision = placement.decide(THREE_WAY, capacity, NOW);

        assertThat(decision).isEqualTo(new Decision(SELECTED, List.of(
                refused(0, P5_X2, "on-demand ml.p5.48xlarge in us-east-1 has 1 of 4 instances free, 2 needed"),
                selected(1, P4D_X4),
                fitsToo(2, G6E_X8, 1))));
        assertThat(decision.selected()).contains(selected(1, P4D_X4));
    }

    @Test
    void waitsWhenNothingFitsWithAReasonForEveryEntry() {
        Capacity capacity = capacity(
                List.of(new OfferingState(OfferingKey.onDemand(EAST, P4D), 8, 0, NOW.plusSeconds(127),
                        "an insufficient-capacity error"), onDemand(G6E, 16, 8)),
                List.of(), team(Map.of(P5, 8, P4D, 8, G6E, 16), Map.of(G6E, 10), null, 0, null, 0));

        Decision decision = placement.decide(THREE_WAY, capacity, NOW);

        assertThat(decision).isEqualTo(new Decision(NOTHING_FITS, List.of(
                refused(0, P5_X2, "on-demand ml.p5.48xlarge in us-east-1 has no instances"),
                refused(1, P4D_X4, "on-demand ml.p4d.24xlarge in us-east-1 marked unavailable until 10:02:07 UTC"
                        + " after an insufficient-capacity error"),
                refused(2, G6E_X8, "team quota for ml.g6e.48xlarge: 10 of 16 in use, 8 needed"))));
        assertThat(decision.selected()).isEmpty();
        assertThat(decision.isSelected()).isFalse();
    }

    // --- why a single entry does not fit

    static Stream<Arguments> refusals() {
        OfferingKey p5 = OfferingKey.onDemand(EAST, P5);
        return Stream.of(
                Arguments.of("offering full",
                        capacity(List.of(onDemand(P5, 4, 3)), List.of(), team()),
                        "on-demand ml.p5.48xlarge in us-east-1 has 1 of 4 instances free, 2 needed"),
                Arguments.of("offering shrunk below its use",
                        capacity(List.of(onDemand(P5, 2, 3)), List.of(), team()),
                        "on-demand ml.p5.48xlarge in us-east-1 has 0 of 2 instances free, 2 needed"),
                Arguments.of("offering without instances",
                        capacity(List.of(onDemand(P5, 0, 0)), List.of(), team()),
                        "on-demand ml.p5.48xlarge in us-east-1 has no instances"),
                Arguments.of("no offering",
                        capacity(List.of(), List.of(), team()),
                        "on-demand ml.p5.48xlarge in us-east-1 has no instances"),
                Arguments.of("offering only in another region",
                        capacity(List.of(OfferingState.of(OfferingKey.onDemand(WEST, P5), 8, 0)), List.of(), team()),
                        "on-demand ml.p5.48xlarge in us-east-1 has no instances"),
                Arguments.of("marked unavailable after a capacity error",
                        capacity(List.of(new OfferingState(p5, 8, 0, NOW.plusSeconds(127),
                                "an insufficient-capacity error")), List.of(), team()),
                        "on-demand ml.p5.48xlarge in us-east-1 marked unavailable until 10:02:07 UTC"
                                + " after an insufficient-capacity error"),
                Arguments.of("marked unavailable without a cause",
                        capacity(List.of(new OfferingState(p5, 8, 0, NOW.plusSeconds(1), null)), List.of(), team()),
                        "on-demand ml.p5.48xlarge in us-east-1 marked unavailable until 10:00:01 UTC"),
                Arguments.of("team quota used up",
                        capacity(List.of(onDemand(P5, 8, 4)), List.of(),
                                team(Map.of(P5, 4), Map.of(P5, 4), null, 0, null, 0)),
                        "team quota for ml.p5.48xlarge: 4 of 4 in use, 2 needed"),
                Arguments.of("team quota headroom too small",
                        capacity(List.of(onDemand(P5, 8, 3)), List.of(),
                                team(Map.of(P5, 4), Map.of(P5, 3), null, 0, null, 0)),
                        "team quota for ml.p5.48xlarge: 3 of 4 in use, 2 needed"),
                Arguments.of("team without quota for the type",
                        capacity(List.of(onDemand(P5, 8, 0)), List.of(),
                                team(Map.of(P4D, 8), Map.of(), null, 0, null, 0)),
                        "team quota for ml.p5.48xlarge: 0 of 0 in use, 2 needed"),
                Arguments.of("team accelerator cap",
                        capacity(List.of(onDemand(P5, 8, 0)), List.of(),
                                team(LIMITS, Map.of(), 3 * P5_ACCELERATORS, 2 * P5_ACCELERATORS, null, 0)),
                        "team accelerator cap: " + 2 * P5_ACCELERATORS + " of " + 3 * P5_ACCELERATORS + " in use, "
                                + 2 * P5_ACCELERATORS + " needed"),
                Arguments.of("team concurrent-job cap",
                        capacity(List.of(onDemand(P5, 8, 0)), List.of(), team(LIMITS, Map.of(), null, 0, 3, 3)),
                        "team concurrent-job cap: 3 of 3 jobs running"),
                Arguments.of("team missing from the snapshot",
                        capacity(List.of(onDemand(P5, 8, 0)), List.of(), null),
                        "team vision does not exist"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refusals")
    void refusesEntryThatCannotRunNow(String behaviour, Capacity capacity, String reason) {
        assertThat(placement.decide(training(P5_X2), capacity, NOW))
                .isEqualTo(new Decision(NOTHING_FITS, List.of(refused(0, P5_X2, reason))));
    }

    static Stream<Arguments> fitsAtTheEdge() {
        OfferingKey p5 = OfferingKey.onDemand(EAST, P5);
        return Stream.of(
                Arguments.of("unavailable mark that ends now",
                        capacity(List.of(new OfferingState(p5, 8, 0, NOW, "an insufficient-capacity error")),
                                List.of(), team())),
                Arguments.of("unavailable mark that has expired",
                        capacity(List.of(new OfferingState(p5, 8, 0, NOW.minusSeconds(1),
                                "an insufficient-capacity error")),
                                List.of(), team())),
                Arguments.of("exactly the instances free",
                        capacity(List.of(onDemand(P5, 4, 2)), List.of(), team())),
                Arguments.of("exactly the quota headroom",
                        capacity(List.of(onDemand(P5, 8, 2)), List.of(),
                                team(Map.of(P5, 4), Map.of(P5, 2), null, 0, null, 0))),
                Arguments.of("exactly the accelerator headroom",
                        capacity(List.of(onDemand(P5, 8, 0)), List.of(),
                                team(LIMITS, Map.of(), 3 * P5_ACCELERATORS, P5_ACCELERATORS, null, 0))),
                Arguments.of("one job below the concurrent-job cap",
                        capacity(List.of(onDemand(P5, 8, 0)), List.of(), team(LIMITS, Map.of(), null, 0, 3, 2))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fitsAtTheEdge")
    void selectsEntryAtTheEdgeOfItsLimits(String behaviour, Capacity capacity) {
        assertThat(placement.decide(training(P5_X2), capacity, NOW))
                .isEqualTo(new Decision(SELECTED, List.of(selected(0, P5_X2))));
    }

    @Test
    void shrunkOfferingHasNothingAvailable() {
        assertThat(onDemand(P5, 2, 3).available()).isZero();
        assertThat(onDemand(P5, 4, 3).available()).isEqualTo(1);
    }

    // --- training plans

    @Test
    void selectsActivePlanWithRoom() {
        Capacity capacity = capacity(List.of(OfferingState.of(plan(PlanStatus.ACTIVE).offering(), 2, 0),
                onDemand(P4D, 8, 0)), List.of(plan(PlanStatus.ACTIVE)), team());

        assertThat(placement.decide(PLAN_FIRST, capacity, NOW)).isEqualTo(new Decision(SELECTED, List.of(
                new EntryVerdict(0, P5, 2, EAST, "plan:h100-q4", true, "selected"),
                new EntryVerdict(1, P4D, 4, EAST, "on-demand", true, "fits too; entry 0 comes first"))));
    }

    @Test
    void takesPlanEntriesFromThePlanNotFromOnDemand() {
        Capacity capacity = capacity(List.of(onDemand(P5, 8, 0),
                OfferingState.of(plan(PlanStatus.ACTIVE).offering(), 2, 1),
                onDemand(P4D, 8, 0)), List.of(plan(PlanStatus.ACTIVE)), team());

        assertThat(placement.decide(PLAN_FIRST, capacity, NOW)).isEqualTo(new Decision(SELECTED, List.of(
                refused(0, P5_X2_ON_PLAN, "plan h100-q4 has 1 of 2 instances free, 2 needed"),
                selected(1, P4D_X4))));
    }

    static Stream<Arguments> plansThatOfferNothing() {
        Instant start = Instant.parse("2026-12-03T00:00:00Z");
        Instant ended = Instant.parse("2026-12-01T00:00:00Z");
        return Stream.of(
                Arguments.of(planState(PlanStatus.SCHEDULED, start, start.plusSeconds(86_400), TEAM),
                        "plan h100-q4 starts at 2026-12-03 00:00:00 UTC"),
                Arguments.of(planState(PlanStatus.SCHEDULED, null, null, TEAM),
                        "plan h100-q4 has not started yet"),
                Arguments.of(planState(PlanStatus.EXPIRED, ended.minusSeconds(86_400), ended, TEAM),
                        "plan h100-q4 expired at 2026-12-01 00:00:00 UTC"),
                Arguments.of(planState(PlanStatus.EXPIRED, null, null, TEAM),
                        "plan h100-q4 has expired"),
                Arguments.of(planState(PlanStatus.FAILED, start, start.plusSeconds(86_400), TEAM),
                        "plan h100-q4 failed"),
                Arguments.of(planState(PlanStatus.PENDING, start, start.plusSeconds(86_400), TEAM),
                        "plan h100-q4 is not yet confirmed"),
                Arguments.of(planState(PlanStatus.ACTIVE, ended, start.plusSeconds(86_400), "nlp"),
                        "plan h100-q4 is not available to team vision"));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("plansThatOfferNothing")
    void refusesPlanThatIsNotActiveOrNotTheTeamsAndMovesOn(PlanState plan, String reason) {
        Capacity capacity = capacity(List.of(OfferingState.of(plan.offering(), 2, 0), onDemand(P4D, 8, 0)),
                List.of(plan), team());

        assertThat(placement.decide(PLAN_FIRST, capacity, NOW)).isEqualTo(new Decision(SELECTED, List.of(
                refused(0, P5_X2_ON_PLAN, reason),
                selected(1, P4D_X4))));
    }

    @Test
    void refusesPlanMissingFromTheSnapshot() {
        Capacity capacity = capacity(List.of(onDemand(P4D, 8, 0)), List.of(), team());

        assertThat(placement.decide(PLAN_FIRST, capacity, NOW)).isEqualTo(new Decision(SELECTED, List.of(
                refused(0, P5_X2_ON_PLAN, "plan h100-q4 is not available to team vision"),
                selected(1, P4D_X4))));
    }

    @Test
    void refusesActivePlanBeyondTheTeamsQuota() {
        Capacity capacity = capacity(List.of(OfferingState.of(plan(PlanStatus.ACTIVE).offering(), 2, 0),
                        onDemand(P4D, 8, 0)), List.of(plan(PlanStatus.ACTIVE)),
                team(Map.of(P5, 4, P4D, 8), Map.of(P5, 4), null, 0, null, 0));

        assertThat(placement.decide(PLAN_FIRST, capacity, NOW)).isEqualTo(new Decision(SELECTED, List.of(
                refused(0, P5_X2_ON_PLAN, "team quota for ml.p5.48xlarge: 4 of 4 in use, 2 needed"),
                selected(1, P4D_X4))));
    }

    @Test
    void refusesPlanEntryOfAProcessingJob() {
        PreferenceEntry g6OnPlan = new PreferenceEntry(G6, 1, EAST, "l4-q4");
        PreferenceEntry g5 = new PreferenceEntry(G5, 1, EAST, null);
        PlanState l4 = new PlanState("l4-q4", G6, EAST, PlanStatus.ACTIVE, NOW, NOW.plusSeconds(3_600), Set.of(TEAM));
        Capacity capacity = capacity(List.of(OfferingState.of(l4.offering(), 4, 0), onDemand(G5, 4, 0)),
                List.of(l4), team());
        var request = new PlacementRequest(TEAM, JobKind.PROCESSING, new PreferenceList(List.of(g6OnPlan, g5)));

        assertThat(placement.decide(request, capacity, NOW)).isEqualTo(new Decision(SELECTED, List.of(
                refused(0, g6OnPlan, "training plans serve training jobs only"),
                selected(1, g5))));
    }

    // --- booking a selection within a cycle

    @Test
    void bookingTakesTheOfferingSoTheNextIdenticalJobFallsThrough() {
        Capacity capacity = capacity(List.of(onDemand(P5, 2, 0), onDemand(P4D, 8, 0), onDemand(G6E, 16, 0)),
                List.of(), team());

        placement.book(THREE_WAY, placement.decide(THREE_WAY, capacity, NOW), capacity);

        assertThat(capacity.offering(OfferingKey.onDemand(EAST, P5))).contains(onDemand(P5, 2, 2));
        assertThat(capacity.team(TEAM)).contains(
                team(LIMITS, Map.of(P5, 2), null, 2 * P5_ACCELERATORS, null, 1));
        assertThat(placement.decide(THREE_WAY, capacity, NOW)).isEqualTo(new Decision(SELECTED, List.of(
                refused(0, P5_X2, "on-demand ml.p5.48xlarge in us-east-1 has 0 of 2 instances free, 2 needed"),
                selected(1, P4D_X4),
                fitsToo(2, G6E_X8, 1))));
    }

    @Test
    void bookingTakesTheTeamsQuotaSoTheNextIdenticalJobFallsThrough() {
        Capacity capacity = capacity(List.of(onDemand(P5, 16, 0), onDemand(P4D, 8, 0)), List.of(),
                team(Map.of(P5, 2, P4D, 8), Map.of(), null, 0, null, 0));
        PlacementRequest request = training(P5_X2, P4D_X4);

        placement.book(request, placement.decide(request, capacity, NOW), capacity);

        assertThat(placement.decide(request, capacity, NOW)).isEqualTo(new Decision(SELECTED, List.of(
                refused(0, P5_X2, "team quota for ml.p5.48xlarge: 2 of 2 in use, 2 needed"),
                selected(1, P4D_X4))));
    }

    @Test
    void bookingCountsAcceleratorsAgainstTheTeamsCap() {
        int cap = 2 * P5_ACCELERATORS;
        Capacity capacity = capacity(List.of(onDemand(P5, 16, 0), onDemand(P4D, 8, 0)), List.of(),
                team(LIMITS, Map.of(), cap, 0, null, 0));
        PlacementRequest request = training(P5_X2, P4D_X4);

        placement.book(request, placement.decide(request, capacity, NOW), capacity);

        assertThat(placement.decide(request, capacity, NOW)).isEqualTo(new Decision(NOTHING_FITS, List.of(
                refused(0, P5_X2, "team accelerator cap: " + cap + " of " + cap + " in use, "
                        + 2 * P5_ACCELERATORS + " needed"),
                refused(1, P4D_X4, "team accelerator cap: " + cap + " of " + cap + " in use, "
                        + 4 * P4D_ACCELERATORS + " needed"))));
    }

    @Test
    void bookingCountsTheJobAgainstTheConcurrentJobCap() {
        Capacity capacity = capacity(List.of(onDemand(P5, 16, 0), onDemand(P4D, 8, 0)), List.of(),
                team(LIMITS, Map.of(), null, 0, 1, 0));
        PlacementRequest request = training(P5_X2, P4D_X4);

        placement.book(request, placement.decide(request, capacity, NOW), capacity);

        assertThat(placement.decide(request, capacity, NOW)).isEqualTo(new Decision(NOTHING_FITS, List.of(
                refused(0, P5_X2, "team concurrent-job cap: 1 of 1 jobs running"),
                refused(1, P4D_X4, "team concurrent-job cap: 1 of 1 jobs running"))));
    }

    @Test
    void bookingAFallbackTakesTheSelectedEntryOnly() {
        Capacity capacity = capacity(List.of(onDemand(P5, 1, 0), onDemand(P4D, 8, 0)), List.of(), team());
        PlacementRequest request = training(P5_X2, P4D_X4);

        placement.book(request, placement.decide(request, capacity, NOW), capacity);

        assertThat(capacity.offering(OfferingKey.onDemand(EAST, P5))).contains(onDemand(P5, 1, 0));
        assertThat(capacity.offering(OfferingKey.onDemand(EAST, P4D))).contains(onDemand(P4D, 8, 4));
        assertThat(capacity.team(TEAM)).contains(team(LIMITS, Map.of(P4D, 4), null, 4 * P4D_ACCELERATORS, null, 1));
    }

    @Test
    void bookingAPlanSelectionTakesThePlan() {
        PlanState active = plan(PlanStatus.ACTIVE);
        Capacity capacity = capacity(List.of(OfferingState.of(active.offering(), 2, 0), onDemand(P5, 8, 0),
                onDemand(P4D, 8, 0)), List.of(active), team());

        placement.book(PLAN_FIRST, placement.decide(PLAN_FIRST, capacity, NOW), capacity);

        assertThat(capacity.offering(active.offering())).contains(OfferingState.of(active.offering(), 2, 2));
        assertThat(capacity.offering(OfferingKey.onDemand(EAST, P5))).contains(onDemand(P5, 8, 0));
        assertThat(placement.decide(PLAN_FIRST, capacity, NOW)).isEqualTo(new Decision(SELECTED, List.of(
                refused(0, P5_X2_ON_PLAN, "plan h100-q4 has 0 of 2 instances free, 2 needed"),
                selected(1, P4D_X4))));
    }

    @Test
    void refusesToBookWithoutASelection() {
        Capacity capacity = capacity(List.of(), List.of(), team());
        Decision nothing = placement.decide(THREE_WAY, capacity, NOW);

        assertThatIllegalArgumentException().isThrownBy(() -> placement.book(THREE_WAY, nothing, capacity))
                .withMessage("nothing selected to book");
    }

    @Test
    void decidingChangesNothing() {
        Capacity capacity = capacity(List.of(onDemand(P5, 2, 0)), List.of(), team());

        Decision first = placement.decide(training(P5_X2), capacity, NOW);

        assertThat(placement.decide(training(P5_X2), capacity, NOW)).isEqualTo(first);
        assertThat(capacity.offering(OfferingKey.onDemand(EAST, P5))).contains(onDemand(P5, 2, 0));
    }

    // --- helpers

    static PlacementRequest training(PreferenceEntry... entries) {
        return new PlacementRequest(TEAM, JobKind.TRAINING, new PreferenceList(List.of(entries)));
    }

    static OfferingState onDemand(String type, int total, int inUse) {
        return OfferingState.of(OfferingKey.onDemand(EAST, type), total, inUse);
    }

    static PlanState plan(PlanStatus status) {
        return planState(status, Instant.parse("2026-12-01T00:00:00Z"), Instant.parse("2026-12-31T00:00:00Z"), TEAM);
    }

    static PlanState planState(PlanStatus status, Instant start, Instant end, String team) {
        return new PlanState("h100-q4", P5, EAST, status, start, end, Set.of(team));
    }

    static TeamState team() {
        return team(LIMITS, Map.of(), null, 0, null, 0);
    }

    static TeamState team(Map<String, Integer> limits, Map<String, Integer> inUse, Integer maxAccelerators,
                          int acceleratorsInUse, Integer maxJobs, int jobsInUse) {
        return new TeamState(TEAM, limits, inUse, maxAccelerators, acceleratorsInUse, maxJobs, jobsInUse, false);
    }

    static Capacity capacity(List<OfferingState> offerings, List<PlanState> plans, TeamState team) {
        return new Capacity(offerings, plans, team == null ? List.of() : List.of(team));
    }

    static String source(PreferenceEntry entry) {
        return entry.trainingPlan() == null ? "on-demand" : "plan:" + entry.trainingPlan();
    }

    static EntryVerdict selected(int index, PreferenceEntry entry) {
        return new EntryVerdict(index, entry.instanceType(), entry.instanceCount(), entry.region(), source(entry),
                true, "selected");
    }

    static EntryVerdict fitsToo(int index, PreferenceEntry entry, int selectedIndex) {
        return new EntryVerdict(index, entry.instanceType(), entry.instanceCount(), entry.region(), source(entry),
                true, "fits too; entry " + selectedIndex + " comes first");
    }

    static EntryVerdict refused(int index, PreferenceEntry entry, String reason) {
        return new EntryVerdict(index, entry.instanceType(), entry.instanceCount(), entry.region(), source(entry),
                false, reason);
    }
}
