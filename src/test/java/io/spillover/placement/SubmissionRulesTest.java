package io.spillover.placement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import io.spillover.catalog.Catalog;
import io.spillover.catalog.InstanceType;
import io.spillover.catalog.JobKind;
import io.spillover.placement.SubmissionRules.Limits;
import io.spillover.placement.SubmissionRules.Result;
import io.spillover.shared.Violation;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class SubmissionRulesTest {

    static final Catalog CATALOG =
            Catalog.readCsv(SubmissionRulesTest.class.getResourceAsStream("/catalog/instance-types.csv"));

    static final String P5 = "ml.p5.48xlarge";
    static final String P4D = "ml.p4d.24xlarge";
    static final String G6E = "ml.g6e.48xlarge";
    static final String G6 = "ml.g6.48xlarge";
    static final String G5 = "ml.g5.48xlarge";
    static final String TRN2 = "ml.trn2.48xlarge";
    static final String M5 = "ml.m5.xlarge";
    static final String EAST = "us-east-1";
    static final String WEST = "us-west-2";

    static final Limits LIMITS = new Limits(1, 2_419_200, EAST, Set.of(EAST, WEST));
    static final Limits SAGEMAKER_LIMITS = new Limits(7_200, 2_419_200, EAST, Set.of(EAST, WEST));

    static final TeamState VISION = new TeamState("vision",
            Map.of(P5, 4, P4D, 4, G6E, 8, G6, 2, G5, 4, TRN2, 2, M5, 4), Map.of(), null, 0, null, 0, false);

    static final PlanState H100_Q4 = new PlanState("h100-q4", P5, EAST, PlanStatus.ACTIVE,
            Instant.parse("2026-12-01T00:00:00Z"), Instant.parse("2026-12-31T00:00:00Z"), Set.of("vision"));
    static final PlanState NLP_ONLY = new PlanState("nlp-h100", P5, EAST, PlanStatus.ACTIVE,
            Instant.parse("2026-12-01T00:00:00Z"), Instant.parse("2026-12-31T00:00:00Z"), Set.of("nlp"));
    static final Map<String, PlanState> PLANS = Map.of(H100_Q4.name(), H100_Q4, NLP_ONLY.name(), NLP_ONLY);

    private final SubmissionRules rules = new SubmissionRules(CATALOG, LIMITS);

    // --- shape of the list (§3.1.1)

    @ParameterizedTest(name = "{0} entries")
    @ValueSource(ints = {1, 2, 3, 4, 5})
    void acceptsOneToFiveEntries(int size) {
        List<String> types = List.of(P5, P4D, G6E, G6, G5).subList(0, size);

        Result result = rules.check(uniform(JobKind.TRAINING, 1, types.stream().map(t -> at(t, null)).toList()),
                VISION, PLANS);

        assertThat(result).isEqualTo(accepted(types.stream().map(t -> new PreferenceEntry(t, 1, EAST, null))
                .toArray(PreferenceEntry[]::new)));
        assertThat(result.accepted()).isTrue();
    }

    static Stream<Arguments> listsOfWrongLength() {
        List<RequestedEntry> six = Stream.of(P5, P4D, G6E, G6, G5, TRN2).map(t -> at(t, null)).toList();
        return Stream.of(
                Arguments.of("no entries", uniform(JobKind.TRAINING, 1, List.of()),
                        rejected(new Violation("instancePreferences", "must list 1 to 5 instance types, not 0"))),
                Arguments.of("six entries", uniform(JobKind.TRAINING, 1, six),
                        rejected(new Violation("instancePreferences", "must list 1 to 5 instance types, not 6"))),
                Arguments.of("no list at all", uniform(JobKind.TRAINING, 1, null),
                        rejected(new Violation("instancePreferences", "must list 1 to 5 instance types"))),
                Arguments.of("no entries and a pending time out of range",
                        new Submission(JobKind.TRAINING, List.of(), 1, 0L),
                        rejected(new Violation("instancePreferences", "must list 1 to 5 instance types, not 0"),
                                new Violation("maxPendingTimeInSeconds", "must be between 1 and 2419200, not 0"))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("listsOfWrongLength")
    void rejectsListOfWrongLength(String behaviour, Submission submission, Result expected) {
        assertThat(rules.check(submission, VISION, PLANS)).isEqualTo(expected);
    }

    @Test
    void rejectsNullEntry() {
        Submission submission = perEntry(JobKind.TRAINING, Arrays.asList(entry(G6, 1), null));

        assertThat(rules.check(submission, VISION, PLANS))
                .isEqualTo(rejected(new Violation("instancePreferences[1]", "must not be null")));
    }

    // --- counts (§3.1.2)

    @Test
    void keepsCountsGivenPerEntry() {
        Submission submission = perEntry(JobKind.TRAINING, List.of(entry(G6, 2), entry(G5, 4)));

        assertThat(rules.check(submission, VISION, PLANS)).isEqualTo(accepted(
                new PreferenceEntry(G6, 2, EAST, null),
                new PreferenceEntry(G5, 4, EAST, null)));
    }

    @Test
    void appliesUniformCountToEveryEntry() {
        Submission submission = uniform(JobKind.TRAINING, 2, List.of(at(P5, null), at(P4D, null), at(G6, null)));

        assertThat(rules.check(submission, VISION, PLANS)).isEqualTo(accepted(
                new PreferenceEntry(P5, 2, EAST, null),
                new PreferenceEntry(P4D, 2, EAST, null),
                new PreferenceEntry(G6, 2, EAST, null)));
    }

    static Stream<Arguments> countStyles() {
        return Stream.of(
                Arguments.of("counts beside the list and on an entry",
                        uniform(JobKind.TRAINING, 4, List.of(entry(G6, 2), at(G5, null))),
                        rejected(new Violation("instanceCount",
                                "give the count once for the job or on every entry, not both"))),
                Arguments.of("counts nowhere",
                        perEntry(JobKind.TRAINING, List.of(at(G6, null), at(G5, null))),
                        rejected(new Violation("instanceCount",
                                "give instanceCount for the job or on every entry of instancePreferences"))),
                Arguments.of("counts on only the first entry",
                        perEntry(JobKind.TRAINING, List.of(entry(G6, 2), at(G5, null), at(G6E, null))),
                        rejected(
                                new Violation("instancePreferences[1].instanceCount",
                                        "must be set: the other entries give their own count"),
                                new Violation("instancePreferences[2].instanceCount",
                                        "must be set: the other entries give their own count"))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("countStyles")
    void rejectsMixedOrMissingCounts(String behaviour, Submission submission, Result expected) {
        assertThat(rules.check(submission, VISION, PLANS)).isEqualTo(expected);
    }

    static Stream<Arguments> nonPositiveCounts() {
        return Stream.of(
                Arguments.of("zero on an entry", perEntry(JobKind.TRAINING, List.of(entry(G6, 0))),
                        rejected(new Violation("instancePreferences[0].instanceCount", "must be at least 1, not 0"))),
                Arguments.of("negative on a later entry",
                        perEntry(JobKind.TRAINING, List.of(entry(G6, 1), entry(G5, -2))),
                        rejected(new Violation("instancePreferences[1].instanceCount", "must be at least 1, not -2"))),
                Arguments.of("zero for the job, reported once",
                        uniform(JobKind.TRAINING, 0, List.of(at(G6, null), at(G5, null), at(G6E, null))),
                        rejected(new Violation("instanceCount", "must be at least 1, not 0"))),
                Arguments.of("negative for the job, reported once",
                        uniform(JobKind.TRAINING, -1, List.of(at(G6, null), at(G5, null))),
                        rejected(new Violation("instanceCount", "must be at least 1, not -1"))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("nonPositiveCounts")
    void rejectsZeroOrNegativeCounts(String behaviour, Submission submission, Result expected) {
        assertThat(rules.check(submission, VISION, PLANS)).isEqualTo(expected);
    }

    // --- types and regions (§3.1.1, §3.2.1)

    @Test
    void rejectsDuplicateTypeAndRegionNamingTheLaterEntry() {
        Submission submission = perEntry(JobKind.TRAINING, List.of(
                new RequestedEntry(G6, 1, null, EAST), entry(G5, 1), new RequestedEntry(G6, 2, null, null)));

        assertThat(rules.check(submission, VISION, PLANS)).isEqualTo(rejected(
                new Violation("instancePreferences[2].instanceType",
                        "ml.g6.48xlarge in us-east-1 is already entry 0; each type and region may appear once")));
    }

    @Test
    void acceptsSameTypeInTwoRegions() {
        Submission submission = perEntry(JobKind.TRAINING, List.of(
                new RequestedEntry(G6, 2, null, EAST), new RequestedEntry(G6, 2, null, WEST)));

        assertThat(rules.check(submission, VISION, PLANS)).isEqualTo(accepted(
                new PreferenceEntry(G6, 2, EAST, null),
                new PreferenceEntry(G6, 2, WEST, null)));
    }

    @Test
    void appliesTheDefaultRegionWhenAnEntryGivesNone() {
        var westFirst = new SubmissionRules(CATALOG, new Limits(1, 2_419_200, WEST, Set.of(EAST, WEST)));
        Submission submission = perEntry(JobKind.TRAINING,
                List.of(entry(G6, 2), new RequestedEntry(G5, 4, null, EAST)));

        assertThat(westFirst.check(submission, VISION, PLANS)).isEqualTo(accepted(
                new PreferenceEntry(G6, 2, WEST, null),
                new PreferenceEntry(G5, 4, EAST, null)));
    }

    @Test
    void rejectsUnknownRegion() {
        Submission submission = perEntry(JobKind.TRAINING, List.of(new RequestedEntry(G6, 1, null, "eu-west-9")));

        assertThat(rules.check(submission, VISION, PLANS)).isEqualTo(rejected(
                new Violation("instancePreferences[0].region",
                        "region eu-west-9 is not served; known: us-east-1, us-west-2")));
    }

    static Stream<Arguments> badTypes() {
        return Stream.of(
                Arguments.of("unknown type", perEntry(JobKind.TRAINING, List.of(entry(G6, 1), entry("ml.x9.huge", 1))),
                        rejected(new Violation("instancePreferences[1].instanceType",
                                "unknown instance type ml.x9.huge"))),
                Arguments.of("missing type", perEntry(JobKind.TRAINING, List.of(entry(null, 1))),
                        rejected(new Violation("instancePreferences[0].instanceType", "must name an instance type"))),
                Arguments.of("blank type", perEntry(JobKind.TRAINING, List.of(entry(" ", 1))),
                        rejected(new Violation("instancePreferences[0].instanceType", "must name an instance type"))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badTypes")
    void rejectsTypesNotInTheCatalog(String behaviour, Submission submission, Result expected) {
        assertThat(rules.check(submission, VISION, PLANS)).isEqualTo(expected);
    }

    static Stream<String> trainingOnlyTypes() {
        return CATALOG.all().stream().filter(t -> t.training() && !t.processing()).map(InstanceType::name);
    }

    @Test
    void catalogHasTrainingOnlyTypes() {
        assertThat(trainingOnlyTypes()).contains(P5, P4D, TRN2);
    }

    @ParameterizedTest
    @MethodSource("trainingOnlyTypes")
    void rejectsTrainingOnlyTypeForProcessingJob(String type) {
        var team = new TeamState("vision", Map.of(type, 1), Map.of(), null, 0, null, 0, false);

        assertThat(rules.check(perEntry(JobKind.PROCESSING, List.of(entry(type, 1))), team, Map.of()))
                .isEqualTo(rejected(new Violation("instancePreferences[0].instanceType",
                        type + " is not available for processing jobs")));
        assertThat(rules.check(perEntry(JobKind.TRAINING, List.of(entry(type, 1))), team, Map.of()))
                .isEqualTo(accepted(new PreferenceEntry(type, 1, EAST, null)));
    }

    // --- quota (§3.2.2)

    @Test
    void rejectsListWhoseLaterEntryExceedsQuota() {
        Submission submission = perEntry(JobKind.TRAINING, List.of(entry(P5, 2), entry(G6, 4)));

        assertThat(rules.check(submission, VISION, PLANS)).isEqualTo(rejected(
                Violation.ofLimit("instancePreferences[1].instanceCount",
                        "team quota for ml.g6.48xlarge allows 2 instances, not 4")));
    }

    @Test
    void rejectsUniformCountOverQuotaOfAnyEntry() {
        Submission submission = uniform(JobKind.TRAINING, 3, List.of(at(P5, null), at(G6, null)));

        assertThat(rules.check(submission, VISION, PLANS)).isEqualTo(rejected(
                Violation.ofLimit("instanceCount", "team quota for ml.g6.48xlarge allows 2 instances, not 3")));
    }

    @Test
    void acceptsCountEqualToQuota() {
        Submission submission = perEntry(JobKind.TRAINING, List.of(entry(P5, 4), entry(G6, 2)));

        assertThat(rules.check(submission, VISION, PLANS).accepted()).isTrue();
    }

    @Test
    void rejectsTypeWithoutQuota() {
        Submission submission = perEntry(JobKind.TRAINING, List.of(entry(P5, 1), entry("ml.g4dn.12xlarge", 1)));

        assertThat(rules.check(submission, VISION, PLANS)).isEqualTo(rejected(
                Violation.ofLimit("instancePreferences[1].instanceCount",
                        "team vision has no quota for ml.g4dn.12xlarge")));
    }

    @Test
    void rejectsEntryOverTheAcceleratorCap() {
        int cap = 2 * CATALOG.get(P5).acceleratorCount();
        int g6eAccelerators = 3 * CATALOG.get(G6E).acceleratorCount();
        var capped = new TeamState("vision", VISION.instanceLimits(), Map.of(), cap, 0, null, 0, false);
        Submission submission = perEntry(JobKind.TRAINING, List.of(entry(P5, 2), entry(G6E, 3)));

        assertThat(g6eAccelerators).isGreaterThan(cap);
        assertThat(rules.check(submission, capped, PLANS)).isEqualTo(rejected(
                Violation.ofLimit("instancePreferences[1].instanceCount",
                        "3 x ml.g6e.48xlarge is " + g6eAccelerators + " accelerators; the team's cap is " + cap)));
    }

    // --- maximum pending time (§3.2.3)

    static Stream<Arguments> pendingTimes() {
        List<RequestedEntry> accelerated = List.of(entry(P5, 2), entry(TRN2, 1), entry(G6, 2));
        List<PreferenceEntry> acceleratedEntries = List.of(new PreferenceEntry(P5, 2, EAST, null),
                new PreferenceEntry(TRN2, 1, EAST, null), new PreferenceEntry(G6, 2, EAST, null));
        return Stream.of(
                Arguments.of("within range, all accelerated",
                        new Submission(JobKind.TRAINING, accelerated, null, 14_400L),
                        new Result(new PreferenceList(acceleratedEntries), List.of())),
                Arguments.of("at the minimum", new Submission(JobKind.TRAINING, accelerated, null, 7_200L),
                        new Result(new PreferenceList(acceleratedEntries), List.of())),
                Arguments.of("at the maximum", new Submission(JobKind.TRAINING, accelerated, null, 2_419_200L),
                        new Result(new PreferenceList(acceleratedEntries), List.of())),
                Arguments.of("below the minimum", new Submission(JobKind.TRAINING, accelerated, null, 7_199L),
                        rejected(new Violation("maxPendingTimeInSeconds",
                                "must be between 7200 and 2419200, not 7199"))),
                Arguments.of("above the maximum", new Submission(JobKind.TRAINING, accelerated, null, 2_419_201L),
                        rejected(new Violation("maxPendingTimeInSeconds",
                                "must be between 7200 and 2419200, not 2419201"))),
                Arguments.of("with a CPU entry", new Submission(JobKind.TRAINING, List.of(entry(G6, 1), entry(M5, 1)),
                                null, 14_400L),
                        rejected(new Violation("maxPendingTimeInSeconds",
                                "may be set only when every entry is an accelerated type; ml.m5.xlarge is not"))),
                Arguments.of("unset with a CPU entry",
                        new Submission(JobKind.TRAINING, List.of(entry(G6, 1), entry(M5, 1)), null, null),
                        accepted(new PreferenceEntry(G6, 1, EAST, null), new PreferenceEntry(M5, 1, EAST, null))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("pendingTimes")
    void checksMaxPendingTime(String behaviour, Submission submission, Result expected) {
        assertThat(new SubmissionRules(CATALOG, SAGEMAKER_LIMITS).check(submission, VISION, PLANS)).isEqualTo(expected);
    }

    // --- training plans (§3.1.1, §3.2.4)

    static Stream<Arguments> plans() {
        return Stream.of(
                Arguments.of("plan matching type and region",
                        perEntry(JobKind.TRAINING, List.of(new RequestedEntry(P5, 2, "h100-q4", null), entry(P4D, 4))),
                        accepted(new PreferenceEntry(P5, 2, EAST, "h100-q4"), new PreferenceEntry(P4D, 4, EAST, null))),
                Arguments.of("plan on a processing job",
                        perEntry(JobKind.PROCESSING, List.of(new RequestedEntry(G6, 1, "h100-q4", null))),
                        rejected(new Violation("instancePreferences[0].trainingPlan",
                                "training plans serve training jobs only"))),
                Arguments.of("unknown plan",
                        perEntry(JobKind.TRAINING, List.of(new RequestedEntry(P5, 2, "a100-q1", null))),
                        rejected(new Violation("instancePreferences[0].trainingPlan",
                                "unknown training plan a100-q1"))),
                Arguments.of("plan another team owns",
                        perEntry(JobKind.TRAINING, List.of(new RequestedEntry(P5, 2, "nlp-h100", null))),
                        rejected(new Violation("instancePreferences[0].trainingPlan",
                                "unknown training plan nlp-h100"))),
                Arguments.of("plan of another instance type",
                        perEntry(JobKind.TRAINING, List.of(entry(P5, 2), new RequestedEntry(P4D, 2, "h100-q4", null))),
                        rejected(new Violation("instancePreferences[1].trainingPlan",
                                "plan h100-q4 reserves ml.p5.48xlarge, not ml.p4d.24xlarge"))),
                Arguments.of("plan in another region",
                        perEntry(JobKind.TRAINING, List.of(new RequestedEntry(P5, 2, "h100-q4", WEST))),
                        rejected(new Violation("instancePreferences[0].trainingPlan",
                                "plan h100-q4 is in us-east-1, not us-west-2"))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("plans")
    void checksTrainingPlans(String behaviour, Submission submission, Result expected) {
        assertThat(rules.check(submission, VISION, PLANS)).isEqualTo(expected);
    }

    // --- everything at once (§3.2)

    @Test
    void reportsEveryViolationAtOnce() {
        Submission submission = new Submission(JobKind.TRAINING,
                List.of(entry("ml.x9.huge", 1), entry(G6, 4), entry(M5, 1)), null, 0L);

        assertThat(rules.check(submission, VISION, PLANS)).isEqualTo(rejected(
                new Violation("instancePreferences[0].instanceType", "unknown instance type ml.x9.huge"),
                Violation.ofLimit("instancePreferences[1].instanceCount",
                        "team quota for ml.g6.48xlarge allows 2 instances, not 4"),
                new Violation("maxPendingTimeInSeconds", "must be between 1 and 2419200, not 0"),
                new Violation("maxPendingTimeInSeconds",
                        "may be set only when every entry is an accelerated type; ml.m5.xlarge is not")));
    }

    @Test
    void limitsRejectAnEmptyOrInvertedPendingRange() {
        assertThatIllegalArgumentException().isThrownBy(() -> new Limits(0, 10, EAST, Set.of(EAST)));
        assertThatIllegalArgumentException().isThrownBy(() -> new Limits(10, 9, EAST, Set.of(EAST)));
    }

    @Test
    void acceptedListHasNoViolationsAndRejectionNoList() {
        Result ok = rules.check(perEntry(JobKind.TRAINING, List.of(entry(G6, 1))), VISION, PLANS);
        Result bad = rules.check(perEntry(JobKind.TRAINING, List.of(entry(G6, 9))), VISION, PLANS);

        assertThat(ok.accepted()).isTrue();
        assertThat(ok.preferences()).isNotNull();
        assertThat(bad.accepted()).isFalse();
        assertThat(bad.preferences()).isNull();
    }

    // --- helpers

    static RequestedEntry entry(String type, Integer count) {
        return new RequestedEntry(type, count, null, null);
    }

    static RequestedEntry at(String type, String region) {
        return new RequestedEntry(type, null, null, region);
    }

    static Submission perEntry(JobKind kind, List<RequestedEntry> entries) {
        return new Submission(kind, entries, null, null);
    }

    static Submission uniform(JobKind kind, int count, List<RequestedEntry> entries) {
        return new Submission(kind, entries, count, null);
    }

    static Result accepted(PreferenceEntry... entries) {
        return new Result(new PreferenceList(List.of(entries)), List.of());
    }

    static Result rejected(Violation... violations) {
        return new Result(null, List.of(violations));
    }
}
