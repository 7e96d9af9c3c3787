package io.spillover.estimates;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillover.placement.OfferingKey;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Which offerings a change re-estimates: those its jobs list, and those linked to them as the estimator has seen. */
class OfferingGroupsTest {

    static final OfferingKey P5 = OfferingKey.onDemand("us-east-1", "ml.p5.48xlarge");
    static final OfferingKey P4D = OfferingKey.onDemand("us-east-1", "ml.p4d.24xlarge");
    static final OfferingKey G5 = OfferingKey.onDemand("us-east-1", "ml.g5.12xlarge");
    static final OfferingKey M5 = OfferingKey.onDemand("us-east-1", "ml.m5.xlarge");
    static final OfferingKey P5_WEST = OfferingKey.onDemand("us-west-2", "ml.p5.48xlarge");

    @Test
    void aJobListingTwoOfferingsLinksThemAndThroughThemAThird() {
        var groups = new OfferingGroups(false);
        groups.link(List.of(P5, P4D));
        groups.link(List.of(P4D, G5));
        groups.link(List.of(M5));

        assertThat(groups.closure(Set.of(P5))).containsExactlyInAnyOrder(P5, P4D, G5);
        assertThat(groups.closure(Set.of(M5))).containsExactly(M5);
    }

    @Test
    void anOfferingNeverSeenIsItsOwnGroup() {
        var groups = new OfferingGroups(false);
        groups.link(List.of(P5, P4D));

        assertThat(groups.closure(Set.of(G5))).containsExactly(G5);
    }

    @Test
    void oneTypeInTwoRegionsIsOneGroupForATeamsQuotaIsPerType() {
        var groups = new OfferingGroups(false);
        groups.link(List.of(P5));
        groups.link(List.of(P5_WEST));

        assertThat(groups.closure(Set.of(P5_WEST))).containsExactlyInAnyOrder(P5, P5_WEST);
    }

    @Test
    void aPlanIsTakenByItsTypeAndRegionAsTheWindowsAreRead() {
        var groups = new OfferingGroups(false);
        groups.link(List.of(OfferingKey.plan("us-east-1", "ml.p5.48xlarge", "h1"), G5));

        assertThat(groups.closure(Set.of(P5))).containsExactlyInAnyOrder(P5, G5);
    }

    @Test
    void underFairShareEveryOfferingSeenIsOneGroup() {
        var groups = new OfferingGroups(true);
        groups.link(List.of(P5));
        groups.link(List.of(M5));

        assertThat(groups.closure(Set.of(G5))).containsExactlyInAnyOrder(P5, M5, G5);
    }
}
