package io.spillover.replay;

import static io.spillover.replay.Fixtures.job;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

class PolicyReportTest {

    @Test
    void summarisesWaitsChoicesAndUtilization() {
        ReplayConfig config = Fixtures.p5First(1, 1, 0); // two instances in all
        var fleet = Fleet.of(config, Fixtures.CATALOG);
        List<ReplayJob> jobs = Fixtures.jobs(config, List.of(job("a", "x", 0, 8, 100), job("b", "y", 10, 8, 100),
                job("c", "y", 20, 8, 80)));
        var run = new PolicyRun(new Policy.PreferenceLists(), List.of(
                new JobRun(jobs.get(0), 0, 100, 0, jobs.get(0).choices().get(0)),
                new JobRun(jobs.get(1), 100, 300, 1, jobs.get(1).choices().get(1)),
                new JobRun(jobs.get(2), 20, 100, 0, jobs.get(2).choices().get(0))), List.of(), 3, 6, 1.0);

        PolicyReport report = PolicyReport.of(run, fleet, 0);

        assertThat(report.queueingDelay()).isEqualTo(new PolicyReport.Distribution(30, 0, 90, 90, 90));
        assertThat(report.firstChoiceShare()).isCloseTo(2 / 3.0, within(1e-9));
        assertThat(report.startsByChoice()).containsExactly(2, 1, 0, 0, 0);
        assertThat(report.makespanSeconds()).isEqualTo(300);
        // busy 100 + 200 + 80 instance-seconds of 2 × 300
        assertThat(report.fleetUtilization()).isCloseTo(380 / 600.0, within(1e-9));
        // until the last arrival at 20: a ran 20 s of 2 × 20
        assertThat(report.fleetUtilizationUntilLastArrival()).isCloseTo(0.5, within(1e-9));
        assertThat(report.meanWaitByTeamSeconds()).containsEntry("x", 0.0).containsEntry("y", 45.0);
        assertThat(report.jobsByTeam()).containsEntry("x", 1L).containsEntry("y", 2L);
        assertThat(report.clientSubmissions()).isEqualTo(3);
    }
}
