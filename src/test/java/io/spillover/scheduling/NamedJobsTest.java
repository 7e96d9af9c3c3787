package io.spillover.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillover.support.ApiTest;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * A job a cycle evaluates by name (its submission, a refused launch, its patience opening an entry) is read with the
 * line of every free offering it lists. Right after a release, the cycle that sees the instance free first may be
 * one woken by a burst's submissions, not by the release: the instance still goes to the first job in line, not to
 * the newest.
 */
class NamedJobsTest extends ApiTest {

    private static final String G5 = "ml.g5.12xlarge";

    @Autowired
    JdbcClient jdbc;

    @Test
    void aNewJobDoesNotTakeAnInstanceAheadOfAnOlderJobWaitingForIt() {
        capacity(G5, 0);
        String team = team(Map.of(G5, 2));
        submit(team, job("older", entry(G5, 1)));
        awaitEvaluation(team, "older");
        // an instance frees behind the scheduler's back: the next cycle is the one of the newer job's submission
        Unannounced.capacity(jdbc, G5, 1);

        submit(team, job("newer", entry(G5, 1)));

        assertThat(awaitEvaluation(team, "newer").get("outcome").asString()).isNotEqualTo("SELECTED");
        assertThat(describe(team, "newer").get("status").asString()).isEqualTo("PENDING");
        assertThat(awaitStatus(team, "older", "RUNNING").get("selection").get("instanceType").asString())
                .isEqualTo(G5);
        capacity(G5, 0);
    }
}
