package io.spillover.placement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class PreferenceListTest {

    @Test
    void guardsItsSizeAndUniqueness() {
        List<PreferenceEntry> six = IntStream.range(0, 6)
                .mapToObj(i -> new PreferenceEntry("ml.g6.48xlarge", 1, "region-" + i, null)).toList();

        assertThatIllegalArgumentException().isThrownBy(() -> new PreferenceList(List.of()))
                .withMessage("a preference list has 1 to 5 entries");
        assertThatIllegalArgumentException().isThrownBy(() -> new PreferenceList(six))
                .withMessage("a preference list has 1 to 5 entries");
        assertThatIllegalArgumentException().isThrownBy(() -> new PreferenceList(List.of(
                        new PreferenceEntry("ml.g6.48xlarge", 1, "us-east-1", null),
                        new PreferenceEntry("ml.g6.48xlarge", 2, "us-east-1", null))))
                .withMessage("ml.g6.48xlarge in us-east-1 appears twice");
    }

    @Test
    void entryTakesFromItsPlanOrOnDemand() {
        assertThat(new PreferenceEntry("ml.p5.48xlarge", 2, "us-east-1", "h100-q4").offering())
                .isEqualTo(new OfferingKey("us-east-1", "ml.p5.48xlarge", "plan:h100-q4"));
        assertThat(new PreferenceEntry("ml.p5.48xlarge", 2, "us-east-1", null).offering())
                .isEqualTo(new OfferingKey("us-east-1", "ml.p5.48xlarge", "on-demand"));
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new PreferenceEntry("ml.p5.48xlarge", 0, "us-east-1", null));
    }

    @Test
    void offeringKeyNamesItselfInWords() {
        OfferingKey plan = OfferingKey.plan("us-east-1", "ml.p5.48xlarge", "h100-q4");
        OfferingKey onDemand = OfferingKey.onDemand("us-east-1", "ml.p4d.24xlarge");

        assertThat(plan.isPlan()).isTrue();
        assertThat(plan.planName()).isEqualTo("h100-q4");
        assertThat(plan.describe()).isEqualTo("plan h100-q4");
        assertThat(onDemand.isPlan()).isFalse();
        assertThat(onDemand.planName()).isNull();
        assertThat(onDemand.describe()).isEqualTo("on-demand ml.p4d.24xlarge in us-east-1");
        assertThatIllegalArgumentException().isThrownBy(() -> new OfferingKey("us-east-1", "ml.p5.48xlarge", "plan:"));
        assertThatIllegalArgumentException().isThrownBy(() -> new OfferingKey("us-east-1", "ml.p5.48xlarge", "spot"));
    }
}
