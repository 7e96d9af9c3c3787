package io.spillover.bench.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The replay expects run times as the service's fair shares do: profile, then team, then platform. */
class RuntimeHistoryTest {

    @Test
    void aProfileStandsForItsJobsFromItsFifthEndedRunAndTheTeamBeforeThat() {
        var history = new RuntimeHistory(100);
        assertThat(history.estimate("vision", "1-gpu")).as("nothing ended yet").isNull();
        for (int i = 0; i < 4; i++) {
            history.ended("vision", "1-gpu", Duration.ofMinutes(10));
        }
        history.ended("vision", "8-gpu", Duration.ofHours(30));
        history.ended("vision", "8-gpu", Duration.ofHours(30));
        assertThat(history.estimate("vision", "1-gpu")).as("four runs: the team's median").isEqualTo(Duration.ofMinutes(10));
        history.ended("vision", "8-gpu", Duration.ofHours(30));
        history.ended("vision", "8-gpu", Duration.ofHours(30));
        assertThat(history.estimate("vision", "8-gpu")).as("four runs: the team's lower median")
                .isEqualTo(Duration.ofMinutes(10));
        history.ended("vision", "8-gpu", Duration.ofHours(30));
        assertThat(history.estimate("vision", "8-gpu")).isEqualTo(Duration.ofHours(30));
        assertThat(history.estimate("nlp", "8-gpu")).as("a new team: the teams' median").isEqualTo(Duration.ofHours(30));
    }
}
