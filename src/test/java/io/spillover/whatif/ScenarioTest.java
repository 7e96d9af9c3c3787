package io.spillover.whatif;

import static io.spillover.whatif.WhatIfFixtures.EAST;
import static io.spillover.whatif.WhatIfFixtures.G5;
import static io.spillover.whatif.WhatIfFixtures.G6E;
import static io.spillover.whatif.WhatIfFixtures.P4D;
import static io.spillover.whatif.WhatIfFixtures.P5;
import static io.spillover.whatif.WhatIfFixtures.WEST;
import static io.spillover.whatif.WhatIfFixtures.job;
import static io.spillover.whatif.WhatIfFixtures.onDemand;
import static org.assertj.core.api.Assertions.assertThat;

import io.spillover.catalog.JobKind;
import io.spillover.placement.PreferenceEntry;
import io.spillover.replay.ReplayJob;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The jobs of an added plan's teams list it as a team with a plan would. */
class ScenarioTest {

    private final Scenario change = Changes.apply(WhatIfFixtures.baseline(), List.of(
            new Edit.AddPlan("east-h100", P5, EAST, 4, List.of("vision"))), Set.of(), WhatIfFixtures.CATALOG)
            .scenario();
    private final PreferenceEntry onPlan = new PreferenceEntry(P5, 1, EAST, "east-h100");

    @Test
    void thePlanComesBeforeTheFirstEntryOfItsTypeTakingThePlaceOfOnDemandInItsRegion() {
        ReplayJob other = job("a", "vision", JobKind.TRAINING, onDemand(P4D, 1, EAST), onDemand(P5, 1, WEST),
                onDemand(G5, 1, EAST));
        ReplayJob same = job("b", "vision", JobKind.TRAINING, onDemand(P4D, 1, EAST), onDemand(P5, 1, WEST),
                onDemand(P5, 1, EAST));

        List<ReplayJob> asked = change.jobs(List.of(other, same));

        assertThat(asked.get(0).choices()).containsExactly(onDemand(P4D, 1, EAST), onPlan, onDemand(P5, 1, WEST),
                onDemand(G5, 1, EAST));
        assertThat(asked.get(1).choices()).containsExactly(onDemand(P4D, 1, EAST), onPlan, onDemand(P5, 1, WEST));
    }

    @Test
    void aListOfFiveLosesItsLastAndOtherTeamsProcessingJobsAndListsWithoutTheTypeAreLeftAlone() {
        ReplayJob five = job("five", "vision", JobKind.TRAINING, onDemand(P5, 1, WEST), onDemand(P4D, 1, EAST),
                onDemand(G5, 1, EAST), onDemand(G6E, 1, EAST), onDemand("ml.g6.48xlarge", 1, EAST));
        ReplayJob nlp = job("nlp", "nlp", JobKind.TRAINING, onDemand(P5, 1, EAST));
        ReplayJob processing = job("proc", "vision", JobKind.PROCESSING, onDemand(P5, 1, EAST));
        ReplayJob noP5 = job("g5", "vision", JobKind.TRAINING, onDemand(G5, 1, EAST));

        List<ReplayJob> asked = change.jobs(List.of(five, nlp, processing, noP5));

        assertThat(asked.get(0).choices()).containsExactly(onPlan, onDemand(P5, 1, WEST), onDemand(P4D, 1, EAST),
                onDemand(G5, 1, EAST), onDemand(G6E, 1, EAST));
        assertThat(asked.subList(1, 4)).containsExactly(nlp, processing, noP5);
        assertThat(WhatIfFixtures.baseline().jobs(List.of(five))).containsExactly(five);
    }
}
