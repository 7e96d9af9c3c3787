package io.spillover.replay;

import static io.spillover.replay.Fixtures.EAST;
import static io.spillover.replay.Fixtures.G5;
import static io.spillover.replay.Fixtures.P4D;
import static io.spillover.replay.Fixtures.P5;
import static io.spillover.replay.Fixtures.WEST;
import static io.spillover.replay.Fixtures.job;
import static org.assertj.core.api.Assertions.assertThat;

import io.spillover.placement.PreferenceEntry;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JobChoicesTest {

    @Test
    void aJobOfGGpusNeedsCeilGOverEightInstancesOfEveryType() {
        var built = Fixtures.choices(Fixtures.p5First(4, 4, 4))
                .build(List.of(job("one", "t", 0, 1, 60), job("nine", "t", 0, 9, 60)));

        assertThat(built.jobs().get(0).choices()).containsExactly(new PreferenceEntry(P5, 1, EAST, null),
                new PreferenceEntry(P4D, 1, EAST, null), new PreferenceEntry(G5, 1, EAST, null));
        assertThat(built.jobs().get(1).choices()).extracting(PreferenceEntry::instanceCount).containsOnly(2);
    }

    @Test
    void leavesOutWhatAJobCouldNeverGetAndReportsJobsThatFitNowhere() {
        var built = Fixtures.choices(Fixtures.p5First(2, 4, 8))
                .build(List.of(job("24-gpus", "t", 0, 24, 60), job("72-gpus", "t", 0, 72, 60)));

        assertThat(built.jobs()).singleElement().satisfies(j -> assertThat(j.choices())
                .containsExactly(new PreferenceEntry(P4D, 3, EAST, null), new PreferenceEntry(G5, 3, EAST, null)));
        assertThat(built.infeasibleEntries()).isEqualTo(1 + 3);
        assertThat(built.unplaceable()).containsExactly("72-gpus");
    }

    @Test
    void aPlanTeamListsItsPlanBeforeOnDemandOfTheSameType() {
        var plan = new ReplayConfig.Plan("h100", P5, WEST, 2, List.of("vision"));
        var choices = Fixtures.choices(Fixtures.config(Map.of(P5, 1.0), 1, 1, 1, List.of(plan)));

        var built = choices.build(List.of(job("v", "vision", 0, 8, 60), job("n", "nlp", 0, 8, 60)));

        assertThat(built.jobs().get(0).choices()).containsExactly(new PreferenceEntry(P5, 1, WEST, "h100"),
                new PreferenceEntry(P5, 1, EAST, null), new PreferenceEntry(P4D, 1, EAST, null),
                new PreferenceEntry(G5, 1, EAST, null));
        assertThat(built.jobs().get(1).choices()).extracting(PreferenceEntry::trainingPlan).containsOnlyNulls();
    }

    @Test
    void theFirstChoiceIsDrawnPerJobByWeightAndTheRestFollowTheLadder() {
        var choices = Fixtures.choices(Fixtures.config(Map.of(P5, 1.0, G5, 1.0), 4, 4, 4, List.of()));
        List<TraceJob> trace = Fixtures.randomTrace(3, 400);

        var jobs = choices.build(trace).jobs();
        var window = choices.build(trace.subList(0, 50)).jobs();

        assertThat(jobs).extracting(j -> j.choices().get(0).instanceType()).containsOnly(P5, G5).contains(P5, G5);
        assertThat(jobs).filteredOn(j -> j.choices().get(0).instanceType().equals(G5))
                .allSatisfy(j -> assertThat(j.choices()).extracting(PreferenceEntry::instanceType)
                        .containsExactly(G5, P5, P4D));
        assertThat(window).isEqualTo(jobs.subList(0, 50));
    }
}
