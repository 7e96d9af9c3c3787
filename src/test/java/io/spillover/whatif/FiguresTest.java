package io.spillover.whatif;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/** A side's waits as the share of all jobs started within each wait. */
class FiguresTest {

    @Test
    void aCdfStepsAtEachDistinctWaitFromZeroAndJobsThatNeverStartedKeepItBelowOne() {
        List<Figures.Point> cdf = Figures.cdf(new long[] {30, 0, 30, 90}, 5);

        assertThat(cdf).containsExactly(new Figures.Point(0, 0.2), new Figures.Point(30, 0.6),
                new Figures.Point(90, 0.8));
        assertThat(Figures.cdf(new long[] {10}, 1)).containsExactly(new Figures.Point(0, 0),
                new Figures.Point(10, 1.0));
        assertThat(Figures.cdf(new long[0], 3)).isEmpty();
    }

    @Test
    void manyDistinctWaitsAreThinnedToEvenlySpacedRanksKeepingTheLongest() {
        long[] waits = LongStream.range(0, 10_000).toArray();

        List<Figures.Point> cdf = Figures.cdf(waits, waits.length);

        assertThat(cdf).hasSizeLessThanOrEqualTo(Figures.CDF_POINTS + 1);
        assertThat(cdf.get(cdf.size() - 1)).isEqualTo(new Figures.Point(9_999, 1.0));
        assertThat(cdf).isSortedAccordingTo(java.util.Comparator.comparingLong(Figures.Point::waitSeconds));
    }
}
