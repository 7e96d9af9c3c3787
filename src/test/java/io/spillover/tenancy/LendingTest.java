package io.spillover.tenancy;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillover.placement.BorrowLimit;
import io.spillover.placement.SharingStrategy;
import io.spillover.placement.TeamState;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Who lends what borrowers hold: the lenders' idle guarantees, in proportion, never a team that reserves. */
class LendingTest {

    static final String P4D = "ml.p4d.24xlarge";

    @Test
    void borrowedInstancesStandOnTheIdleGuaranteesOfTheTeamsThatLendInProportion() {
        var quotas = Map.of(
                "vision", quota("vision", 2, 6, SharingStrategy.LEND_AND_BORROW),
                "nlp", quota("nlp", 4, 1, SharingStrategy.LEND),
                "speech", quota("speech", 2, 1, SharingStrategy.LEND),
                "audio", quota("audio", 8, 0, SharingStrategy.RESERVE));

        var lent = Lending.lent(quotas);

        assertThat(lent).containsOnlyKeys("nlp", "speech");
        assertThat(lent.get("nlp")).containsExactly(Map.entry(P4D, 3));
        assertThat(lent.get("speech")).containsExactly(Map.entry(P4D, 1));
        assertThat(Lending.borrowed(quotas.get("vision"))).containsExactly(Map.entry(P4D, 4));
        assertThat(Lending.borrowed(quotas.get("nlp"))).isEmpty();
    }

    @Test
    void aShareGivesTheRoundingToTheLargestRemaindersAndNeverMoreThanALenderLeavesIdle() {
        assertThat(Lending.share(2, Map.of("a", 1, "b", 1, "c", 1))).containsExactly(Map.entry("a", 1), Map.entry("b", 1));
        assertThat(Lending.share(5, Map.of("a", 3, "b", 1))).containsExactly(Map.entry("a", 3), Map.entry("b", 1));
        assertThat(Lending.share(3, Map.of("a", 5, "b", 1))).containsExactly(Map.entry("a", 3));
        assertThat(Lending.share(0, Map.of("a", 5))).isEmpty();
    }

    private static TeamState quota(String team, int guarantee, int inUse, SharingStrategy strategy) {
        return new TeamState(team, Map.of(P4D, guarantee), Map.of(P4D, inUse), null, 0, null, 0, false, strategy,
                BorrowLimit.UNLIMITED);
    }
}
