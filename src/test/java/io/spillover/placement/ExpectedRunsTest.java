package io.spillover.placement;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillover.catalog.JobKind;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** What a pending job is expected to run: its sweep's runs first, then its own maximum and its typical run. */
class ExpectedRunsTest {

    /**
     * Table: the sweep's completed runs and running members (minutes, ";"-separated), the job's maximum run time
     * and its typical run (minutes, empty for none), and the expected run in minutes (empty for unknown).
     */
    @ParameterizedTest(name = "ended [{0}], running [{1}], max {2}, typical {3} → {4}")
    @CsvSource(delimiter = '|', nullValues = "", textBlock = """
            # nothing known of the sweep: the job's maximum, else its typical run, else nothing
                        |           |     |  60 |  60
                        |           | 120 |  60 | 120
                        |           |     |     |
            # the sweep's completed runs speak for the rest, bounded by the job's maximum
            10;12;50    |           |     | 600 |  12
            10;12;50    |           |  11 | 600 |  11
            # a member that started a minute ago hides no end: the median is the ended runs'
            10;11       | 1         |     | 600 |  10
            # fewer than half ended before the others' times: the longest so far is expected to last as long again
            10          | 300;360   |     |  60 | 720
            10          | 300;360   | 480 |  60 | 480
            # a sweep whose members run only briefly yet says little: the typical run stands when it is longer
                        | 30        |     | 120 | 120
                        | 30        |     |     |  60
            """)
    void expectsFromTheSweepThenTheJobThenItsHistory(String ended, String running, Long max, Long typical,
                                                     Long expected) {
        var sweep = new ExpectedRuns.Sweep(minutes(ended), minutes(running));

        Duration estimate = ExpectedRuns.expected(max == null ? null : Duration.ofMinutes(max), sweep,
                typical == null ? null : Duration.ofMinutes(typical));

        assertThat(estimate).isEqualTo(expected == null ? null : Duration.ofMinutes(expected));
    }

    @Test
    void theMedianCountsARunningMemberAsAtRiskUntilItsTimeSoFar() {
        // ends at 10 and 40 min, members running for 20 and 50 min: S(10) = 3/4, S(40) = 3/4 × 1/2 = 3/8
        var sweep = new ExpectedRuns.Sweep(List.of(Duration.ofMinutes(10), Duration.ofMinutes(40)),
                List.of(Duration.ofMinutes(20), Duration.ofMinutes(50)));

        assertThat(sweep.median()).isEqualTo(Duration.ofMinutes(40));
        assertThat(sweep.longest()).isEqualTo(Duration.ofMinutes(50));
        assertThat(sweep.describe()).isEqualTo("2 ended, median 40 min; 2 running, longest 50 min so far");
    }

    @Test
    void anEstimateIsNeverUnderASecond() {
        var sweep = new ExpectedRuns.Sweep(List.of(Duration.ZERO), List.of());

        assertThat(ExpectedRuns.expected(null, sweep, null)).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void jobsOfOneProfileOrOfOneListShareASweepKey() {
        var list = new PreferenceList(List.of(new PreferenceEntry("ml.p5.48xlarge", 2, "us-east-1", "h100-q4"),
                new PreferenceEntry("ml.p4d.24xlarge", 4, "us-east-1", null)));

        assertThat(ExpectedRuns.sweepKey("llama-ft", JobKind.TRAINING, list)).isEqualTo("profile:llama-ft");
        assertThat(ExpectedRuns.sweepKey(null, JobKind.TRAINING, list))
                .isEqualTo("list:TRAINING:2xml.p5.48xlarge@us-east-1+h100-q4,4xml.p4d.24xlarge@us-east-1");
    }

    private static List<Duration> minutes(String values) {
        return values == null ? List.of()
                : java.util.Arrays.stream(values.split(";")).map(v -> Duration.ofMinutes(Long.parseLong(v))).toList();
    }
}
