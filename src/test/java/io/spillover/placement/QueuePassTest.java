package io.spillover.placement;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillover.catalog.Catalog;
import io.spillover.catalog.JobKind;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A pass over the queue: queue order, booking between jobs, best-effort and strict FIFO (SPEC §3.4.2). */
class QueuePassTest {

    static final Catalog CATALOG = PlacementTest.CATALOG;
    static final Instant NOW = Instant.parse("2026-12-02T10:00:00Z");
    static final String P4D = "ml.p4d.24xlarge";
    static final String G6E = "ml.g6e.48xlarge";

    private final QueuePass pass = new QueuePass(new Placement(CATALOG));

    @Test
    void ordersByPriorityThenSubmissionTimeThenId() {
        var late = job("a-late", 0, 30, P4D, 1);
        var early = job("b-early", 0, 10, P4D, 1);
        var urgent = job("c-urgent", 5, 50, P4D, 1);
        var tieB = job("e-tie", 0, 20, P4D, 1);
        var tieA = job("d-tie", 0, 20, P4D, 1);

        var queue = new ArrayList<>(List.of(late, early, urgent, tieB, tieA));
        queue.sort(QueuedRequest.queueOrder());

        assertThat(queue).extracting(QueuedRequest::id).containsExactly("c-urgent", "b-early", "d-tie", "e-tie", "a-late");
    }

    @Test
    void booksEachSelectionSoTheNextJobFallsThrough() {
        Capacity capacity = capacity(false, 2, 1);

        var outcomes = pass.decide(List.of(
                job("one", 0, 1, P4D, 2, G6E, 1),
                job("two", 0, 2, P4D, 2, G6E, 1),
                job("three", 0, 3, P4D, 2, G6E, 1)), capacity, NOW);

        assertThat(selections(outcomes)).containsExactly("one:0", "two:1", "three:-");
        assertThat(capacity.offering(OfferingKey.onDemand("us-east-1", P4D)).orElseThrow().inUse()).isEqualTo(2);
        assertThat(capacity.team("vision").orElseThrow().jobsInUse()).isEqualTo(2);
    }

    @Test
    void aJobThatDoesNotFitLetsSmallerJobsBehindItStart() {
        var outcomes = pass.decide(List.of(job("big", 0, 1, P4D, 4), job("small", 0, 2, P4D, 1)),
                capacity(false, 2, 0), NOW);

        assertThat(selections(outcomes)).containsExactly("big:-", "small:0");
    }

    @Test
    void inAStrictFifoTeamAWaitingJobHoldsBackTheJobsBehindIt() {
        var outcomes = pass.decide(List.of(job("big", 0, 1, P4D, 4), job("small", 0, 2, P4D, 1)),
                capacity(true, 2, 0), NOW);

        assertThat(selections(outcomes)).containsExactly("big:-", "small:-");
        assertThat(outcomes.get(1).decision()).isEqualTo(Decision.heldBack(
                outcomes.get(1).job().request().preferences(), "waiting behind job big (strict FIFO)"));
    }

    private static List<String> selections(List<QueuePass.Outcome<String>> outcomes) {
        return outcomes.stream().map(o -> o.job().id() + ":"
                + o.decision().selected().map(v -> String.valueOf(v.index())).orElse("-")).toList();
    }

    private static Capacity capacity(boolean strictFifo, int p4d, int g6e) {
        return new Capacity(
                List.of(OfferingState.of(OfferingKey.onDemand("us-east-1", P4D), p4d, 0),
                        OfferingState.of(OfferingKey.onDemand("us-east-1", G6E), g6e, 0)),
                List.of(),
                List.of(new TeamState("vision", Map.of(P4D, 8, G6E, 8), Map.of(), null, 0, null, 0, strictFifo)));
    }

    /** A job of team vision: pairs of (instance type, count), in order. */
    private static QueuedRequest<String> job(String id, int priority, int second, Object... entries) {
        var list = new ArrayList<PreferenceEntry>();
        for (int i = 0; i < entries.length; i += 2) {
            list.add(new PreferenceEntry((String) entries[i], (Integer) entries[i + 1], "us-east-1", null));
        }
        return new QueuedRequest<>(id, new PlacementRequest("vision", JobKind.TRAINING, new PreferenceList(list)),
                priority, NOW.plusSeconds(second));
    }
}
