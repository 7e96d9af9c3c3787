package io.spillover.whatif;

import static io.spillover.whatif.WhatIfFixtures.CATALOG;
import static io.spillover.whatif.WhatIfFixtures.EAST;
import static io.spillover.whatif.WhatIfFixtures.G5;
import static io.spillover.whatif.WhatIfFixtures.P4D;
import static io.spillover.whatif.WhatIfFixtures.P5;
import static io.spillover.whatif.WhatIfFixtures.WEST;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.spillover.placement.OfferingKey;
import io.spillover.placement.QueuePolicy;
import io.spillover.shared.InvalidRequestException;
import io.spillover.shared.Violation;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A change's edits, checked against the live configuration and applied to a copy of it, in order. */
class ChangesTest {

    private final Scenario baseline = WhatIfFixtures.baseline();

    @Test
    void editsApplyInOrderEachToTheConfigurationTheEditsBeforeItLeft() {
        Changes.Changed changed = apply(
                new Edit.OfferingCapacity(EAST, P5, null, 2),
                new Edit.AddPlan("extra", P4D, EAST, 3, List.of("nlp")),
                new Edit.OfferingCapacity(EAST, P4D, "plan:extra", 5),
                new Edit.RemovePlan("h100"),
                new Edit.Team("vision", 3, Map.of(P5, 4, G5, 0), null, 5),
                new Edit.Queue(null, 600L, true, null, null, false, null, null, null, null));

        var fleet = changed.scenario().fleet();
        assertThat(fleet.total(OfferingKey.onDemand(EAST, P5))).isEqualTo(2);
        assertThat(fleet.total(OfferingKey.plan(EAST, P4D, "extra"))).isEqualTo(5);
        assertThat(fleet.plan("h100")).isEmpty();
        assertThat(fleet.offerings()).doesNotContain(OfferingKey.plan(WEST, P5, "h100"));
        assertThat(changed.scenario().addedPlans()).extracting(p -> p.name()).containsExactly("extra");
        var vision = fleet.rules("vision");
        assertThat(vision.weight()).isEqualTo(3);
        assertThat(vision.instanceLimits()).containsEntry(P5, 4).containsEntry(P4D, 4).containsEntry(G5, 0);
        assertThat(vision.maxConcurrentJobs()).isEqualTo(5);
        QueuePolicy policy = changed.scenario().policy();
        assertThat(policy.fairShare()).isTrue();
        assertThat(policy.fallbackAfter()).isEqualTo(Duration.ofMinutes(10));
        assertThat(policy.reserveAfter()).isNull();
        assertThat(policy.shortestFirst()).isTrue();
        assertThat(changed.described()).containsExactly(
                "on-demand " + P5 + " in " + EAST + ": 1 → 2 instance(s)",
                "plan extra added: 3 × " + P4D + " in " + EAST + ", for [nlp]",
                "plan extra: 3 → 5 instance(s)",
                "plan h100 removed: 2 instance(s) fewer",
                "team vision: weight 1 → 3, quota of " + G5 + " 8 → 0, quota of " + P5 + " 2 → 4,"
                        + " concurrent-job cap none → 5",
                "queue policy: patience 0 s → 600 s, fair share off → on, holds after 86400 s and the expected run"
                        + " → off");
        assertThat(baseline.fleet().total(OfferingKey.onDemand(EAST, P5))).as("the baseline stays as it was")
                .isEqualTo(1);
    }

    @Test
    void everyBrokenRuleIsReportedAtOnceNamingItsEditsField() {
        assertThatThrownBy(() -> apply(
                new Edit.OfferingCapacity(EAST, "ml.nonsense", null, 2),
                new Edit.OfferingCapacity(WEST, G5, null, 2),
                new Edit.OfferingCapacity(EAST, P5, "plan:nope", 1),
                new Edit.OfferingCapacity(EAST, P5, null, -3),
                new Edit.AddPlan("h100", "ml.m5.xlarge", "eu-west-1", 0, List.of("ghosts")),
                new Edit.RemovePlan("nope"),
                new Edit.Team("ghosts", 2, null, null, null),
                new Edit.Team("vision", 0, Map.of("ml.nonsense", 1), -1, null),
                new Edit.Queue(null, -1L, null, 0L, null, false, 60L, null, 0.5, null)))
                .isInstanceOfSatisfying(InvalidRequestException.class, e -> assertThat(e.violations())
                        .extracting(Violation::field).containsExactly(
                                "edits[0].instanceType", "edits[1].instanceType", "edits[2].source",
                                "edits[3].instances", "edits[4].name", "edits[4].region",
                                "edits[4].instances", "edits[4].teams[0]", "edits[5].name", "edits[6].team",
                                "edits[7].weight", "edits[7].maxAccelerators", "edits[7].instanceLimits.ml.nonsense",
                                "edits[8].fallbackAfterSeconds", "edits[8].shareDecaySeconds",
                                "edits[8].holdAfterSeconds", "edits[8].precedenceLapse"));
    }

    @Test
    void aQueueEditSetsWhenPrecedenceLapsesAndSaysSo() {
        Changes.Changed never = apply(new Edit.Queue(null, null, null, null, null, null, null, null, 0.0, null));

        assertThat(never.scenario().policy().precedenceLapse()).isZero();
        assertThat(never.described())
                .containsExactly("queue policy: precedence lapses at response ratio 2.0 → never");
        assertThat(apply(new Edit.Queue(null, null, null, null, null, null, null, null, 4.0, null)).scenario().policy()
                .precedenceLapse()).isEqualTo(4.0);
    }

    @Test
    void aChangeNeedsAnEditAndAnEditMayNameATeamOfTheInputThatThePlatformLacks() {
        assertThatThrownBy(() -> apply()).isInstanceOfSatisfying(InvalidRequestException.class,
                e -> assertThat(e.violations()).extracting(Violation::field).containsExactly("edits"));

        var withTraceTeams = baseline.with(TraceInput.fleetFor(baseline.fleet()));
        Changes.Changed changed = Changes.apply(withTraceTeams, List.of(new Edit.Team("vc-7", 4, null, null, null)),
                Set.of("vc-7"), CATALOG);

        assertThat(changed.scenario().fleet().rules("vc-7").weight()).isEqualTo(4);
        assertThat(changed.scenario().fleet().rules("vc-7").limit(P5)).isEqualTo(TraceInput.NO_LIMIT);
    }

    @Test
    void aQueueEditLetsJobsHoldOnAgeAloneAndSaysSo() {
        Changes.Changed byAge = apply(new Edit.Queue(null, null, null, null, null, null, null, null, null, false));

        assertThat(byAge.scenario().policy().holdAfterRun()).isFalse();
        assertThat(byAge.described()).containsExactly("queue policy: holds after 86400 s and the expected run → after"
                + " 86400 s");
    }

    @Test
    void firstFitTurnsEveryRuleOffAndHoldsComeBackWithTheirDefaultAge() {
        assertThat(apply(new Edit.Queue(null, null, null, null, null, null, null, true, null, null)).scenario()
                .policy()).isEqualTo(QueuePolicy.FIRST_FIT);
        Scenario noHolds = apply(new Edit.Queue(null, null, null, null, null, false, null, null, null, null))
                .scenario();
        var holdsBack = new Edit.Queue(null, null, null, null, null, true, null, null, null, null);
        assertThat(Changes.apply(noHolds, List.of(holdsBack), Set.of(), CATALOG).scenario().policy().reserveAfter())
                .isEqualTo(Duration.ofDays(1));
    }

    private Changes.Changed apply(Edit... edits) {
        return Changes.apply(baseline, List.of(edits), Set.of(), CATALOG);
    }
}
