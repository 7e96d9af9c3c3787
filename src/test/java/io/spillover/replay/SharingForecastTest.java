package io.spillover.replay;

import static io.spillover.replay.Fixtures.CATALOG;
import static io.spillover.replay.Fixtures.EAST;
import static io.spillover.replay.Fixtures.P4D;
import static org.assertj.core.api.Assertions.assertThat;

import io.spillover.catalog.JobKind;
import io.spillover.placement.BorrowLimit;
import io.spillover.placement.OfferingKey;
import io.spillover.placement.OfferingState;
import io.spillover.placement.PlacementRequest;
import io.spillover.placement.PreferenceEntry;
import io.spillover.placement.PreferenceList;
import io.spillover.placement.QueuePolicy;
import io.spillover.placement.QueuedRequest;
import io.spillover.placement.RunningPlacement;
import io.spillover.placement.SharingPolicy;
import io.spillover.placement.SharingStrategy;
import io.spillover.placement.TeamState;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Estimated starts where guarantees are lent: the forecast borrows and reclaims as the scheduler's pass does. */
class SharingForecastTest {

    static final Instant NOW = Instant.parse("2026-12-04T10:00:00Z");
    static final OfferingKey P4D_EAST = OfferingKey.onDemand(EAST, P4D);
    static final PreferenceEntry TWO_P4D = new PreferenceEntry(P4D, 2, EAST, null);

    private final Forecast forecast = new Forecast(CATALOG);

    @Test
    void aLendersJobIsEstimatedToStartAfterTheGraceNotWhenTheBorrowerWouldEnd() {
        // vision borrowed both p4d for a preemptible job that may run 99 h more; nlp's guarantee covers them
        var borrower = new Situation.Running<>("borrower", "vision", TWO_P4D, Duration.ofHours(1), false,
                runs(Duration.ofHours(100)),
                new RunningPlacement("borrower", "vision", P4D_EAST, 2, 0, NOW.minus(Duration.ofHours(1)), true, true,
                        Duration.ofHours(100), 0, null));
        var lenderJob = waiting("lender-job", "nlp", false);
        List<TeamState> teams = List.of(team("vision", 0, 2), team("nlp", 2, 0));

        StartEstimate shared = estimate(teams, 2, List.of(borrower), lenderJob, SharingPolicy.DEFAULT);
        StartEstimate hard = estimate(teams, 2, List.of(borrower), lenderJob, SharingPolicy.OFF);

        assertThat(shared.p50()).isEqualTo(NOW.plus(SharingPolicy.DEFAULT.grace()));
        assertThat(hard.p50()).isEqualTo(NOW.plus(Duration.ofHours(99)));
    }

    @Test
    void aJobThatMayBorrowIsEstimatedToStartOnIdleCapacityBeyondItsTeamsGuarantee() {
        var job = waiting("borrows", "vision", true);
        List<TeamState> teams = List.of(team("vision", 1, 0), team("nlp", 4, 0));

        StartEstimate shared = estimate(teams, 4, List.of(), job, SharingPolicy.DEFAULT);
        StartEstimate hard = estimate(teams, 4, List.of(), job, SharingPolicy.OFF);

        assertThat(shared.p50()).isEqualTo(NOW);
        assertThat(hard.p50()).isNull();
        assertThat(hard.basis()).startsWith("no entry can start within");
    }

    private StartEstimate estimate(List<TeamState> teams, int p4d, List<Situation.Running<String>> running,
                                   Situation.Waiting<String> waiting, SharingPolicy sharing) {
        int inUse = running.stream().mapToInt(r -> r.entry().instanceCount()).sum();
        var situation = new Situation<>(NOW, QueuePolicy.DEFAULT, List.of(OfferingState.of(P4D_EAST, p4d, inUse)),
                List.of(), teams, Map.of(), Map.of(), running, List.of(waiting), List.of(), sharing);
        return forecast.estimate(situation).estimates().get(waiting.job().id());
    }

    private static Situation.Waiting<String> waiting(String id, String team, boolean preemptible) {
        var request = new PlacementRequest(team, JobKind.TRAINING, new PreferenceList(List.of(TWO_P4D)), null,
                preemptible);
        return new Situation.Waiting<>(new QueuedRequest<>(id, request, 0, NOW.minusSeconds(60)),
                runs(Duration.ofHours(1)), null);
    }

    private static TeamState team(String name, int p4dGuarantee, int p4dInUse) {
        return new TeamState(name, Map.of(P4D, p4dGuarantee), Map.of(P4D, p4dInUse), null, 0, null, 0, false,
                SharingStrategy.LEND_AND_BORROW, BorrowLimit.UNLIMITED);
    }

    private static Runs runs(Duration maxRuntime) {
        return new Runs(maxRuntime, null, null, null, RunPool.NONE);
    }
}
