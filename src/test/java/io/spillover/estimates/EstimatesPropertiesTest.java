package io.spillover.estimates;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The estimator's settings: defaults as documented, and a value out of range refused by its name. */
class EstimatesPropertiesTest {

    @Test
    void unsetSettingsTakeTheDocumentedDefaults() {
        var settings = new EstimatesProperties(null, null, null, null);

        assertThat(settings).isEqualTo(new EstimatesProperties(EstimatesProperties.RunsOn.SCHEDULER, 0.2,
                Duration.ofSeconds(60), 500));
    }

    @Test
    void aShareOfACoreOutsideZeroToOneIsRefusedByName() {
        assertThatThrownBy(() -> new EstimatesProperties(null, 1.5, null, null))
                .hasMessageContaining("spillover.estimates.max-share");
        assertThatThrownBy(() -> new EstimatesProperties(null, 0.0, null, null))
                .hasMessageContaining("spillover.estimates.max-share");
    }

    @Test
    void aWindowOfNoJobsAndAnIntervalOfNoTimeAreRefusedByName() {
        assertThatThrownBy(() -> new EstimatesProperties(null, null, null, 0))
                .hasMessageContaining("spillover.estimates.window");
        assertThatThrownBy(() -> new EstimatesProperties(null, null, Duration.ZERO, null))
                .hasMessageContaining("spillover.estimates.full-interval");
    }
}
