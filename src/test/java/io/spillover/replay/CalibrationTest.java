package io.spillover.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Calibration: how far the latest intervals missed widens the next ones. */
class CalibrationTest {

    static final Instant NOW = Instant.parse("2026-12-05T10:00:00Z");

    @Test
    void tooFewEstimatesChangeNothing() {
        var outcomes = new ArrayList<Calibration.Outcome>();
        for (int i = 0; i < Calibration.MIN_OUTCOMES - 1; i++) {
            outcomes.add(new Calibration.Outcome(100, 200, 300, 10_000, true));
        }
        var estimate = new StartEstimate(NOW.plusSeconds(100), NOW.plusSeconds(200), NOW.plusSeconds(300), 0,
                "first in line", false);

        Calibration calibration = Calibration.of(outcomes);

        assertThat(calibration.corrects()).isFalse();
        assertThat(calibration.correct(estimate, NOW, null)).isEqualTo(estimate);
    }

    @Test
    void aNarrowIntervalIsWidenedUntilItHoldsEightStartsInTenAndTheMedianStays() {
        var random = new SplittableRandom(7);
        // the forecast says 1 h within ±10 min; the truth is spread over a factor of 3 either way of 2 h
        Calibration calibration = Calibration.of(outcomes(random, Calibration.WINDOW));

        long[] corrected = calibration.correct(3000, 3600, 4200);

        assertThat(corrected[1]).isEqualTo(3600);
        assertThat(corrected[0]).isLessThan(3000);
        assertThat(corrected[2]).isGreaterThan(4200 * 3);
        List<Calibration.Outcome> next = outcomes(random, 4000);
        double covered = next.stream().filter(o -> {
            long[] c = calibration.correct(o.p10(), o.p50(), o.p90());
            return c[0] <= o.waited() && o.waited() <= c[2];
        }).count() / 4000.0;
        double before = next.stream().filter(o -> o.p10() <= o.waited() && o.waited() <= o.p90()).count() / 4000.0;
        assertThat(covered).isBetween(0.74, 0.88);
        assertThat(before).isLessThan(0.2);
    }

    @Test
    void jobsStillWaitingPastTheirEstimateWidenTheHighEnd() {
        var started = new ArrayList<Calibration.Outcome>();
        for (int i = 0; i < 100; i++) {
            started.add(new Calibration.Outcome(3000, 3600, 4200, 3000 + 12L * i, true));
        }
        var withWaiting = new ArrayList<>(started);
        for (int i = 0; i < 100; i++) {
            withWaiting.add(new Calibration.Outcome(3000, 3600, 4200, 20_000, false)); // five times p90 so far
        }

        long startedOnly = Calibration.of(started).correct(3000, 3600, 4200)[2];
        long counted = Calibration.of(withWaiting).correct(3000, 3600, 4200)[2];

        assertThat(startedOnly).isLessThanOrEqualTo(4200);
        assertThat(counted).isGreaterThanOrEqualTo(20_000);
    }

    @Test
    void onlyTheLatestEstimatesCount() {
        var outcomes = new ArrayList<Calibration.Outcome>();
        for (int i = 0; i < Calibration.WINDOW; i++) {
            outcomes.add(new Calibration.Outcome(100, 200, 300, 100_000, true)); // long ago, far too early
        }
        for (int i = 0; i < Calibration.WINDOW; i++) {
            outcomes.add(new Calibration.Outcome(100, 200, 300, 200, true)); // lately, right
        }

        assertThat(Calibration.of(outcomes).correct(100, 200, 300)[2]).isLessThanOrEqualTo(300);
    }

    @Test
    void aWidenedEstimateKeepsItsOrderEntryAndBasisSaysWhetherItIsPastTheDeadlineAndOneWithoutAStartStaysAsItIs() {
        var outcomes = new ArrayList<Calibration.Outcome>();
        for (int i = 0; i < 50; i++) {
            outcomes.add(new Calibration.Outcome(0, 0, 0, 60L * i, true));
        }
        Calibration calibration = Calibration.of(outcomes);
        var estimate = new StartEstimate(NOW, NOW.plusSeconds(60), NOW.plusSeconds(120), 2,
                "first in line on ml.p5.48xlarge", false);
        var none = new StartEstimate(null, null, null, null, "no start within 60 d", false);

        StartEstimate corrected = calibration.correct(estimate, NOW, NOW.plusSeconds(30));

        assertThat(corrected.p10()).isBetween(NOW, corrected.p50());
        assertThat(corrected.p50()).isEqualTo(NOW.plusSeconds(60));
        assertThat(Duration.between(NOW, corrected.p90())).isGreaterThan(Duration.ofMinutes(30));
        assertThat(corrected.entry()).isEqualTo(2);
        assertThat(corrected.basis()).isEqualTo("first in line on ml.p5.48xlarge");
        assertThat(corrected.pastDeadline()).isTrue();
        assertThat(calibration.correct(none, NOW, null)).isEqualTo(none);
    }

    @Test
    void theEndsNeverCrossAMedianWithAFractionOfASecond() {
        var outcomes = new ArrayList<Calibration.Outcome>();
        for (int i = 0; i < 50; i++) {
            outcomes.add(new Calibration.Outcome(5400, 5400, 5400, 5400, true)); // every estimate right
        }
        Instant made = NOW.plusMillis(704);
        var estimate = new StartEstimate(made.plusSeconds(5569).plusMillis(500), made.plusSeconds(5569).plusMillis(500),
                made.plusSeconds(5569).plusMillis(500), 0, "229 jobs ahead", false);

        StartEstimate corrected = Calibration.of(outcomes).correct(estimate, made, null);

        assertThat(corrected.p10()).isBeforeOrEqualTo(corrected.p50());
        assertThat(corrected.p50()).isEqualTo(estimate.p50()).isBeforeOrEqualTo(corrected.p90());
    }

    private static List<Calibration.Outcome> outcomes(SplittableRandom random, int count) {
        var outcomes = new ArrayList<Calibration.Outcome>();
        for (int i = 0; i < count; i++) {
            double factor = Math.exp(Math.log(2) + Math.log(3) * random.nextGaussian());
            outcomes.add(new Calibration.Outcome(3000, 3600, 4200, Math.round(3600 * factor), true));
        }
        return outcomes;
    }
}
