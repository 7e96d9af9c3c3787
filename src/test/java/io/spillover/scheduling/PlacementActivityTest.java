package io.spillover.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/** Placement work in hand, and the work that steps aside for it. */
class PlacementActivityTest {

    private final PlacementActivity activity = new PlacementActivity();

    @Test
    void withNoPlacementWorkInHandNothingWaits() throws Exception {
        assertThat(activity.busy()).isFalse();
        assertThat(activity.stepAside(Duration.ofHours(1))).isZero();
        assertThat(activity.steppingAside()).isFalse();
    }

    @Test
    void aStepAsideLastsUntilTheLastWorkInHandEnds() throws Exception {
        PlacementActivity.Work cycle = activity.begin();
        PlacementActivity.Work other = activity.begin();
        CompletableFuture<Duration> aside = CompletableFuture.supplyAsync(() -> {
            try {
                return activity.stepAside(Duration.ofHours(1));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        // the work ends only once the other thread is waiting for it, not merely started
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(activity::steppingAside);

        cycle.close();
        cycle.close(); // a second close does not end the other's work
        assertThat(activity.busy()).isTrue();
        assertThat(aside).isNotDone();
        other.close();

        assertThat(aside.get(10, TimeUnit.SECONDS)).isPositive().isLessThan(Duration.ofSeconds(10));
        assertThat(activity.busy()).isFalse();
    }

    @Test
    void aStepAsideEndsAtItsBoundThoughTheWorkGoesOn() throws Exception {
        try (PlacementActivity.Work cycle = activity.begin()) {
            Duration waited = activity.stepAside(Duration.ofMillis(20));

            assertThat(waited).isGreaterThanOrEqualTo(Duration.ofMillis(20)).isLessThan(Duration.ofSeconds(5));
            assertThat(activity.busy()).isTrue();
        }
    }
}
