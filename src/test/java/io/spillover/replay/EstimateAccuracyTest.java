package io.spillover.replay;

import static io.spillover.replay.Fixtures.job;
import static org.assertj.core.api.Assertions.assertThat;

import io.spillover.placement.QueuePolicy;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Estimates at submission measured against the starts the replay then made. */
class EstimateAccuracyTest {

    static final Policy.Queued SPILLOVER = new Policy.Queued("spillover", "the default queue", QueuePolicy.DEFAULT);

    // one p5: a runs first, b and c wait behind it, one after the other
    final ReplayConfig config = Fixtures.p5First(1, 0, 0);
    final Fleet fleet = Fleet.of(config, Fixtures.CATALOG);
    final List<ReplayJob> jobs = Fixtures.jobs(config, List.of(job("a", "t", 0, 8, 1000), job("b", "t", 10, 8, 1000),
            job("c", "t", 20, 8, 1000), job("d", "t", 30, 8, 500)));

    @Test
    void knowingEveryRunTheForecastOfAQueueWithoutLaterArrivalsIsExact() {
        PolicyRun run = new QueueReplay(fleet, false).run(SPILLOVER, jobs);

        EstimateReport report = new EstimateAccuracy(fleet, EstimateAccuracy.Settings.DEFAULT
                .withRuns(EstimateAccuracy.RunKnowledge.TRUE_RUNS), () -> 0).measure(SPILLOVER, jobs, run);

        assertThat(report.jobs()).isEqualTo(3);
        assertThat(report.forecasts()).isEqualTo(3);
        assertThat(report.intervalCoverage()).isEqualTo(1.0);
        assertThat(report.medianRelativeError()).isZero();
        assertThat(report.forecast().medianRelativeError()).isZero();
        assertThat(report.calibration()).startsWith("none");
    }

    @Test
    void fromHistoryAloneTheFirstEstimatesMissAndTheNaiveOneIsMeasuredBeside() {
        PolicyRun run = new QueueReplay(fleet, false).run(SPILLOVER, jobs);

        EstimateReport report = new EstimateAccuracy(fleet, EstimateAccuracy.Settings.DEFAULT, () -> 0)
                .measure(SPILLOVER, jobs, run);

        assertThat(report.jobs()).isEqualTo(3);
        assertThat(report.medianRelativeError()).isGreaterThan(0.1);
        assertThat(report.baseline().method()).startsWith("the job's place in the line");
        assertThat(report.byWait()).extracting(EstimateReport.Band::jobs).containsExactly(3);
    }

    @Test
    void onlyHistoryKnowledgeIsMeasured() {
        var oracle = new Policy.Queued("oracle", "knows every run", QueuePolicy.DEFAULT, Policy.Knowledge.ORACLE);
        PolicyRun run = new QueueReplay(fleet, false).run(oracle, jobs);

        var accuracy = new EstimateAccuracy(fleet, EstimateAccuracy.Settings.DEFAULT, () -> 0);

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> accuracy.measure(oracle, jobs, run))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("oracle");
    }
}
