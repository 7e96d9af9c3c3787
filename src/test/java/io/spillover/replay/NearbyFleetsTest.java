package io.spillover.replay;

import static io.spillover.replay.GoalsTest.report;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.offset;
import static org.assertj.core.groups.Tuple.tuple;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * "No team worse off for lending", judged over the fleet and the fleets one instance away: a team one replay calls
 * worse off by chance is not, a team that waits longer on average is.
 */
class NearbyFleetsTest {

    @Test
    void theNearbyFleetsHaveOneOnDemandInstanceFewerOrMoreOfOneOfferingEach() {
        ReplayConfig fleet = Fixtures.p5First(1, 4, 64);

        List<NearbyFleets.Nearby> nearby = NearbyFleets.around(fleet);

        // p5 has a single instance: no fleet without it
        assertThat(nearby).extracting(NearbyFleets.Nearby::change, n -> n.config().onDemand().stream()
                        .map(ReplayConfig.OnDemand::instances).toList())
                .containsExactly(
                        tuple("ml.p5.48xlarge in us-east-1 2 (+1)", List.of(2, 4, 64)),
                        tuple("ml.p4d.24xlarge in us-east-1 3 (−1)", List.of(1, 3, 64)),
                        tuple("ml.p4d.24xlarge in us-east-1 5 (+1)", List.of(1, 5, 64)),
                        tuple("ml.g5.48xlarge in us-east-1 63 (−1)", List.of(1, 4, 63)),
                        tuple("ml.g5.48xlarge in us-east-1 65 (+1)", List.of(1, 4, 65)));
        // nothing else changes: the types, the quota share (so the quotas follow the fleet), the sharing
        assertThat(nearby).allSatisfy(n -> assertThat(List.of(n.config().types(), n.config().teamQuotaShare(),
                n.config().sharing())).isEqualTo(List.of(fleet.types(), fleet.teamQuotaShare(), fleet.sharing())));
    }

    @Test
    void otherDrawsAreTheSameFleetWithTheJobsListsAndPreemptibleJobsDrawnFromTheNextSeeds() {
        ReplayConfig fleet = Fixtures.p5First(1, 4, 64);

        List<NearbyFleets.Nearby> draws = NearbyFleets.draws(fleet, 3);

        assertThat(draws).extracting(NearbyFleets.Nearby::change, n -> n.config().seed(),
                        n -> n.config().lending().seed())
                .containsExactly(
                        tuple("lists and preemptible jobs drawn from seed 8", 8L, 8L),
                        tuple("lists and preemptible jobs drawn from seed 9", 9L, 9L),
                        tuple("lists and preemptible jobs drawn from seed 10", 10L, 10L));
        assertThat(draws).allSatisfy(n -> assertThat(n.config().onDemand()).isEqualTo(fleet.onDemand()));
    }

    @Test
    void aTeamIsWorseOffWhenItsWaitAveragedOverTheFleetsIsNotWhenOneReplayCallsItSo() {
        var replays = new LinkedHashMap<String, List<PolicyReport>>();
        // "a" waits 2 h more shared on the fleet as it is, 2 h less on the next: chance, not lending
        // "b" waits 20 % more on both
        replays.put("as it is", List.of(
                shared(Map.of("a", 10 * 3600.0, "b", 1200.0), 0.5),
                hard(Map.of("a", 8 * 3600.0, "b", 1000.0), 0.6),
                report("polling-60s-x3", 1, 1, 1, 0.4, 1),
                report("polling-30s-x3", 1, 1, 1, 0.45, 1)));
        replays.put("g5 63 (−1)", List.of(
                shared(Map.of("a", 8 * 3600.0, "b", 6000.0), 0.7),
                hard(Map.of("a", 10 * 3600.0, "b", 5000.0), 0.6),
                report("polling-60s-x3", 1, 1, 1, 0.35, 1)));

        NearbyFleets judged = NearbyFleets.judge(replays);

        assertThat(judged.fleets()).containsExactly("as it is", "g5 63 (−1)");
        assertThat(judged.shared()).containsEntry("a", 9 * 3600.0).containsEntry("b", 3600.0);
        assertThat(judged.hard()).containsEntry("a", 9 * 3600.0).containsEntry("b", 3000.0);
        assertThat(judged.worseOff()).containsExactly("b");
        assertThat(judged.worseOffIn()).containsEntry("a", 1).containsEntry("b", 2);
        assertThat(judged.changes().get("a")).map(c -> Math.round(c * 1000) / 1000.0).containsExactly(0.25, -0.2);
        assertThat(judged.changes().get("b")).map(c -> Math.round(c * 1000) / 1000.0).containsExactly(0.2, 0.2);
        // a's differences +2 h and -2 h: a standard deviation of 2√2 h over √2 replays, 2 h
        assertThat(judged.standardErrors().get("a")).isCloseTo(2 * 3600.0, offset(1e-6));
        // b's +200 s and +1,000 s: 400√2 s over √2
        assertThat(judged.standardErrors().get("b")).isCloseTo(400.0, offset(1e-6));
        assertThat(judged.fairnessShared()).isCloseTo(0.6, offset(1e-9));
        assertThat(judged.fairnessHard()).isCloseTo(0.6, offset(1e-9));
        // the better script of each fleet: 0.45, then 0.35
        assertThat(judged.fairnessScript()).isCloseTo(0.4, offset(1e-9));
    }

    @Test
    void aFleetReplayedWithoutTheHardQuotasCannotBeJudged() {
        var replays = Map.of("as it is", List.of(shared(Map.of("a", 1.0), 1)));

        assertThatThrownBy(() -> NearbyFleets.judge(replays))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the fleet as it is was not replayed under no-sharing");
    }

    @Test
    void withoutAScriptThereIsNoScriptFairness() {
        var replays = Map.of("as it is", List.of(shared(Map.of("a", 1.0), 1), hard(Map.of("a", 1.0), 1)));

        assertThat(NearbyFleets.judge(replays).fairnessScript()).isNull();
    }

    private static PolicyReport shared(Map<String, Double> waitByTeam, double jain) {
        return report(Goals.POLICY, 1, 1, 1, jain, 1, waitByTeam, PolicyReport.Sharing.NONE);
    }

    private static PolicyReport hard(Map<String, Double> waitByTeam, double jain) {
        return report(Goals.WITHOUT_SHARING, 1, 1, 1, jain, 1, waitByTeam, PolicyReport.Sharing.NONE);
    }
}
