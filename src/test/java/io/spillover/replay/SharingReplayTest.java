package io.spillover.replay;

import static io.spillover.replay.Fixtures.P5;
import static org.assertj.core.api.Assertions.assertThat;

import io.spillover.placement.BorrowLimit;
import io.spillover.placement.OfferingKey;
import io.spillover.placement.QueuePolicy;
import io.spillover.placement.SharingPolicy;
import io.spillover.placement.SharingStrategy;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Lending in virtual time: a borrower preempted for a lender, requeued, resumed from its last checkpoint. */
class SharingReplayTest {

    /** 4 p5, two teams each guaranteed 2, both lending and borrowing; every job preemptible, none bounded. */
    private static final Fleet FLEET = new Fleet(Fixtures.CATALOG, Map.of(OfferingKey.onDemand(Fixtures.EAST, P5), 4),
            List.of(), Map.of(), TeamRules.quota(Map.of(P5, 2)).withSharing(SharingStrategy.LEND_AND_BORROW,
            BorrowLimit.UNLIMITED));
    private static final Lending LENDING = new Lending(SharingPolicy.DEFAULT, SharingStrategy.LEND_AND_BORROW,
            BorrowLimit.UNLIMITED, 0, 0L, false, 1800, 300, 3, 1);

    @Test
    void aBorrowerIsPreemptedForALenderAfterItsGraceAndResumesFromItsLastCheckpointWhenCapacityFrees() {
        var jobs = List.of(
                Fixtures.listed("a1", "a", 0, 0, 10_000, Fixtures.onDemand(P5, 2)),
                Fixtures.listed("a2", "a", 0, 0, 10_000, Fixtures.onDemand(P5, 2)),
                Fixtures.listed("b1", "b", 3_000, 0, 100, Fixtures.onDemand(P5, 2)));
        var policy = new Policy.Queued("spillover", "shares", QueuePolicy.DEFAULT, Policy.Knowledge.HISTORY, LENDING);

        PolicyRun run = new QueueReplay(FLEET, false).run(policy, jobs);

        // a2 borrowed team b's idle guarantee at 0; b1 claims it at 3,000, a2 stops after the 120 s grace, b1 starts
        JobRun a2 = run.runs().stream().filter(r -> r.job().id().equals("a2")).findFirst().orElseThrow();
        JobRun b1 = run.runs().stream().filter(r -> r.job().id().equals("b1")).findFirst().orElseThrow();
        assertThat(b1.startSeconds()).isEqualTo(3_120);
        assertThat(a2.preempted()).containsExactly(new JobRun.Attempt(0, 3_120, Fixtures.onDemand(P5, 2), true,
                1_320)); // checkpoints at 1,800 s of work: 3,120 − 1,800 lost
        // back in the queue at its place; it borrows again when b1 ends, restarts (300 s) and runs the 8,200 s left
        assertThat(a2.startSeconds()).isEqualTo(3_220);
        assertThat(a2.restartSeconds()).isEqualTo(300);
        assertThat(a2.endSeconds()).isEqualTo(3_220 + 300 + 8_200);
        assertThat(a2.waitSeconds()).isEqualTo(100);
        assertThat(a2.lostInstanceSeconds()).isEqualTo(2 * 300 + 2 * 1_320);
        assertThat(run.reclaims()).isEqualTo(new PolicyRun.Reclaims(1, List.of(120L), 2));

        PolicyReport report = PolicyReport.of(run, FLEET, 0);
        assertThat(report.sharing().preemptions()).isEqualTo(1);
        assertThat(report.sharing().gpuHoursLost()).isEqualTo(8 * (2 * 300 + 2 * 1_320) / 3600.0);
        assertThat(report.sharing().reclaimDelay().max()).isEqualTo(120);
    }

    @Test
    void withHardQuotasTheSameJobsWaitForTheirTeamsOwnInstances() {
        var jobs = List.of(
                Fixtures.listed("a1", "a", 0, 0, 10_000, Fixtures.onDemand(P5, 2)),
                Fixtures.listed("a2", "a", 0, 0, 10_000, Fixtures.onDemand(P5, 2)),
                Fixtures.listed("b1", "b", 3_000, 0, 100, Fixtures.onDemand(P5, 2)));
        var policy = new Policy.Queued("no-sharing", "hard", QueuePolicy.DEFAULT, Policy.Knowledge.HISTORY,
                LENDING.withPolicy(SharingPolicy.DEFAULT.withEnabled(false)));

        PolicyRun run = new QueueReplay(FLEET, false).run(policy, jobs);

        assertThat(Fixtures.starts(run)).containsExactly("a1:0:" + P5 + ":on-demand",
                "a2:10000:" + P5 + ":on-demand", "b1:3000:" + P5 + ":on-demand");
        assertThat(run.reclaims()).isEqualTo(PolicyRun.Reclaims.NONE);
    }
}
