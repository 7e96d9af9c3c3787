package io.spillover.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillover.support.ApiTest;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * A cycle reads a team's line on a free offering only as far as the offering's free instances and the look-ahead
 * (one job here). When the jobs it read start and instances are still free, the next cycle reads on, without
 * waiting for another event or the sweep.
 */
@TestPropertySource(properties = "spillover.scheduling.look-ahead=1")
class LookAheadTest extends ApiTest {

    private static final String G5 = "ml.g5.12xlarge";
    private static final String G6 = "ml.g6.48xlarge";

    @Autowired
    JdbcClient jdbc;

    @Test
    void whenTheJobsAWindowReadStartTheNextCycleReadsTheLineBehindThem() {
        capacity(G5, 0);
        capacity(G6, 0);
        String team = team(Map.of(G5, 3, G6, 3));
        for (String name : new String[] {"first", "second", "third"}) {
            submit(team, job(name, entry(G5, 1), entry(G6, 1)));
            awaitEvaluation(team, name);
        }
        // three instances of the first choice appear behind the scheduler's back: no event names them
        Unannounced.capacity(jdbc, G5, 3);

        capacity(G6, 1); // wakes the jobs listing G6: a window of 1 + 1 of the team's line

        for (String name : new String[] {"first", "second", "third"}) {
            assertThat(awaitStatus(team, name, "RUNNING").get("selection").get("instanceType").asString())
                    .isEqualTo(G5);
        }
        JsonNode placing = evaluations(team, "third").get(0);
        assertThat(placing.get("outcome").asString()).isEqualTo("SELECTED");
        assertThat(placing.get("trigger").asString()).isEqualTo("JOB_LEFT_QUEUE");
        capacity(G5, 0);
        capacity(G6, 0);
    }
}
