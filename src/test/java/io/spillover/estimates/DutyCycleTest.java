package io.spillover.estimates;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The estimator's budget of one core: busy at most its share of the time, with room kept for changes. */
class DutyCycleTest {

    static final long MS = 1_000_000;

    @Test
    void anEstimatorThatAlwaysHasWorkIsBusyAtMostItsShareOfTheTime() {
        var duty = new DutyCycle(0.2, Duration.ofMillis(250), 0);
        long now = 0;
        long busy = 0;
        while (now < 600_000 * MS) {
            long wait = duty.untilChanges(now);
            now += wait;
            long took = 40 * MS;
            now += took;
            busy += took;
            duty.spent(now, took, false);
        }
        assertThat((double) busy / now).isBetween(0.19, 0.201);
    }

    @Test
    void aFullEstimationWaitsUntilItsCostAndTheReserveAreEarnedSoThatChangesAfterItNeedNotWait() {
        var duty = new DutyCycle(0.25, Duration.ofMillis(250), 0);
        assertThat(duty.untilFull(0)).as("the first one, its cost unknown").isZero();
        duty.spent(500 * MS, 500 * MS, true);

        long untilFull = duty.untilFull(500 * MS);
        assertThat(untilFull).as("from 125 ms in debt to 750 ms, earned at a quarter").isEqualTo(3_500 * MS);
        long at = 500 * MS + untilFull;
        duty.spent(at + 500 * MS, 500 * MS, true);

        assertThat(duty.untilChanges(at + 500 * MS)).as("the reserve is left").isZero();
    }

    @Test
    void atAFifthOfACoreABusyStretchIsFollowedByAPauseFourTimesItsLength() {
        var duty = new DutyCycle(0.2, Duration.ofMillis(0), 0);
        duty.spent(100 * MS, 100 * MS, false);

        assertThat(duty.untilChanges(100 * MS)).isEqualTo(400 * MS);
    }
}
