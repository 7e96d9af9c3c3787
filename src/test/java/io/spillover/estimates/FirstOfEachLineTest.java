package io.spillover.estimates;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillover.catalog.JobKind;
import io.spillover.placement.PlacementRequest;
import io.spillover.placement.PreferenceEntry;
import io.spillover.placement.PreferenceList;
import io.spillover.placement.QueuedRequest;
import io.spillover.replay.Runs;
import io.spillover.replay.Situation;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Which pending jobs an estimation forecasts: the first of each line of jobs with one first choice. */
class FirstOfEachLineTest {

    static final Instant NOW = Instant.parse("2026-12-04T10:00:00Z");

    @Test
    void theFirstJobsOfEachFirstChoiceInQueueOrderAreEstimatedAndTheRestHearHowManyWaitBefore() {
        var waiting = new ArrayList<Situation.Waiting<UUID>>();
        var p5 = new ArrayList<UUID>();
        for (int i = 0; i < 4; i++) {
            UUID id = new UUID(0, i);
            p5.add(id);
            // submitted later as i grows, listed in reverse: the queue's order is what counts
            waiting.add(0, waiting(id, "ml.p5.48xlarge", NOW.plusSeconds(i), 0));
        }
        UUID urgent = new UUID(1, 0);
        waiting.add(waiting(urgent, "ml.p5.48xlarge", NOW.plusSeconds(10), 5));
        UUID g5 = new UUID(2, 0);
        waiting.add(waiting(g5, "ml.g5.12xlarge", NOW.plusSeconds(20), 0));
        var beyond = new HashMap<UUID, String>();

        var estimated = StartEstimator.firstOfEachLine(waiting, 2, beyond);

        assertThat(estimated).containsExactlyInAnyOrder(urgent, p5.get(0), g5);
        assertThat(beyond).containsOnlyKeys(p5.get(1), p5.get(2), p5.get(3));
        assertThat(beyond.get(p5.get(3))).isEqualTo("beyond the forecast: 4 jobs wait before it for on-demand"
                + " ml.p5.48xlarge in us-east-1, more than the 2 it estimates per first choice");
    }

    private static Situation.Waiting<UUID> waiting(UUID id, String type, Instant submitted, int priority) {
        var request = new PlacementRequest("t", JobKind.TRAINING,
                new PreferenceList(List.of(new PreferenceEntry(type, 1, "us-east-1", null))));
        return new Situation.Waiting<>(new QueuedRequest<>(id, request, priority, submitted), Runs.UNKNOWN, null);
    }
}
