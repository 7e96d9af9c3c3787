package io.spillover.replay;

import static io.spillover.replay.Fixtures.G5;
import static io.spillover.replay.Fixtures.P4D;
import static io.spillover.replay.Fixtures.P5;
import static io.spillover.replay.Fixtures.job;
import static io.spillover.replay.Fixtures.starts;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Policy (c): client scripts polling single-type submissions. */
class PollingReplayTest {

    private static final Policy.Polling EVERY_MINUTE_THREE_TRIES = new Policy.Polling(60, 3);

    @Test
    void aScriptTriesEachTypeSoManyTimesThenMovesOnAndWrapsRound() {
        ReplayConfig config = Fixtures.p5First(1, 1, 0);
        var jobs = Fixtures.jobs(config, List.of(job("blocker", "t", 0, 8, 1000), job("mover", "t", 0, 8, 1000),
                job("late", "t", 10, 8, 1000)));

        for (boolean everyTry : List.of(false, true)) {
            PolicyRun run = new PollingReplay(Fleet.of(config, Fixtures.CATALOG), everyTry)
                    .run(EVERY_MINUTE_THREE_TRIES, jobs);

            // mover: p5 refused at 0, 60, 120, then p4d at 180. late: p5 at 10, 70, 130, p4d at 190, 250, 310,
            // p5 again from 370 ...; p5 frees at 1000, and late's next p5 try is at 10 + 18 × 60 = 1090
            assertThat(starts(run)).containsExactly("blocker:0:" + P5 + ":on-demand", "late:1090:" + P5 + ":on-demand",
                    "mover:180:" + P4D + ":on-demand");
            // 1 + 4 + 19 tries, whether replayed one by one or slept through
            assertThat(PolicyReport.of(run, Fleet.of(config, Fixtures.CATALOG), 0).clientSubmissions()).isEqualTo(24);
        }
    }

    @Test
    void sleepingUntilAReleaseMakesTheRunsOfReplayingEveryTry() {
        ReplayConfig config = Fixtures.config(Map.of(P5, 0.5, P4D, 0.3, G5, 0.2), 4, 6, 8, List.of());
        var jobs = Fixtures.jobs(config, Fixtures.randomTrace(5, 200));
        var fleet = Fleet.of(config, Fixtures.CATALOG);
        var policy = new Policy.Polling(300, 2);

        PolicyRun sleeping = new PollingReplay(fleet, false).run(policy, jobs);
        PolicyRun everyTry = new PollingReplay(fleet, true).run(policy, jobs);

        assertThat(starts(sleeping)).hasSize(200).isEqualTo(starts(everyTry));
        assertThat(sleeping.runs()).anyMatch(r -> r.waitSeconds() > 3_600).anyMatch(r -> r.choice() == 2);
        assertThat(sleeping.evaluations()).isLessThan(everyTry.evaluations());
    }
}
