package io.spillover.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The replay expects run times as the service does: the job's sweep, then its profile, team and platform. */
class RuntimeHistoryTest {

    private final List<ReplayJob> jobs = new ArrayList<>();
    private final RuntimeHistory history = new RuntimeHistory(100);

    @Test
    void aProfileStandsForItsJobsFromItsFifthEndedRunAndTheTeamBeforeThat() {
        ReplayJob waiting = submit("vision", 0, 1);
        assertThat(history.typical("vision", waiting.profile())).as("nothing ended yet").isNull();
        for (int i = 0; i < 4; i++) {
            end(submit("vision", 10_000 * (i + 1), 1), Duration.ofMinutes(10));
        }
        end(submit("vision", 100_000, 8), Duration.ofHours(30));
        end(submit("vision", 110_000, 8), Duration.ofHours(30));
        assertThat(history.typical("vision", "1-gpu")).as("four runs: the team's median").isEqualTo(Duration.ofMinutes(10));
        end(submit("vision", 120_000, 8), Duration.ofHours(30));
        end(submit("vision", 130_000, 8), Duration.ofHours(30));
        assertThat(history.typical("vision", "8-gpu")).as("four runs: the team's lower median")
                .isEqualTo(Duration.ofMinutes(10));
        end(submit("vision", 140_000, 8), Duration.ofHours(30));
        assertThat(history.typical("vision", "8-gpu")).isEqualTo(Duration.ofHours(30));
        assertThat(history.typical("nlp", "8-gpu")).as("a new team: the teams' median").isEqualTo(Duration.ofHours(30));
    }

    @Test
    void jobsSubmittedWithinFiveMinutesOfTheOneBeforeShareASweepWhoseRunsSpeakForTheRest() {
        for (int i = 0; i < 5; i++) {
            end(submit("vision", 1_000 + i, 1), Duration.ofHours(40)); // the profile's history: long runs
        }
        ReplayJob first = submit("vision", 500_000, 1);
        ReplayJob second = submit("vision", 500_000 + 299, 1);
        ReplayJob third = submit("vision", 500_000 + 299 + 300, 1);
        ReplayJob later = submit("vision", 500_000 + 299 + 300 + 301, 1);
        assertThat(history.expected(third, null, 600_000, true)).as("no member has run: the profile's median")
                .isEqualTo(Duration.ofHours(40));

        history.started(first, 600_000);
        history.ended(first, Duration.ofMinutes(12));

        assertThat(history.expected(third, null, 600_720, true)).isEqualTo(Duration.ofMinutes(12));
        assertThat(history.expected(second, null, 600_720, true)).isEqualTo(Duration.ofMinutes(12));
        assertThat(history.expected(third, null, 600_720, false)).as("without sweeps").isEqualTo(Duration.ofHours(40));
        assertThat(history.expected(later, null, 600_720, true)).as("301 s after the one before: a sweep of its own")
                .isEqualTo(history.typical("vision", "1-gpu"));
    }

    @Test
    void aSweepWhoseMembersStillRunIsExpectedToRunAsLongAgainAsItsLongestSoFar() {
        ReplayJob first = submit("nlp", 0, 1);
        ReplayJob second = submit("nlp", 10, 1);
        ReplayJob third = submit("nlp", 20, 1);
        history.started(first, 100);
        history.started(second, 100);

        assertThat(history.sweep(third, 3_700).running()).containsExactly(Duration.ofHours(1), Duration.ofHours(1));
        assertThat(history.expected(third, null, 3_700, true)).isEqualTo(Duration.ofHours(2));
        assertThat(history.expected(third, Duration.ofMinutes(90), 3_700, true)).as("bounded by its maximum run time")
                .isEqualTo(Duration.ofMinutes(90));
    }

    private ReplayJob submit(String team, long at, int gpus) {
        var trace = Fixtures.job("j" + jobs.size(), team, at, gpus, 3_600);
        var job = Fixtures.jobs(Fixtures.p5First(10, 10, 10), List.of(trace)).get(0);
        job = new ReplayJob(job.id(), job.team(), job.submitSeconds(), jobs.size(), job.priority(), job.kind(),
                job.profile(), job.choices(), job.runSeconds(), null, null, null, job.accelerators());
        jobs.add(job);
        history.submitted(job);
        return job;
    }

    private void end(ReplayJob job, Duration run) {
        history.started(job, job.submitSeconds());
        history.ended(job, run);
    }
}
