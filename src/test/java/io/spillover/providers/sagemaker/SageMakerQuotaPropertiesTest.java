package io.spillover.providers.sagemaker;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Capacity read from the account: refreshed every ten minutes unless set, and a bad setting stops the start. */
class SageMakerQuotaPropertiesTest {

    @Test
    void readsEveryTenMinutesWithTwentyDescribesOfOutsideJobsUnlessSet() {
        var properties = new SageMakerQuotaProperties(null, null, null);

        assertThat(properties.quotaRefreshInterval()).isEqualTo(Duration.ofMinutes(10));
        assertThat(properties.outsideUseDescribes()).isEqualTo(20);
        assertThat(properties.problems()).isEmpty();
    }

    @Test
    void namesEveryProblemWithItsProperty() {
        var properties = new SageMakerQuotaProperties(Duration.ZERO, URI.create("vpce-servicequotas"), -1);

        assertThat(properties.problems()).containsExactly(
                "spillover.sagemaker.quota-refresh-interval must be positive",
                "spillover.sagemaker.quota-endpoint-override must be an absolute URI (https://...)",
                "spillover.sagemaker.outside-use-describes must be 0 or more");
    }
}
