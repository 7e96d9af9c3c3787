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

/**
 * Lending in virtual time: a borrower preempted for a lender, requeued, resumed from its last checkpoint; with in-team
 * preemption, a long job giving way to its short teammate.
 */
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
        assertThat(run.reclaims()).isEqualTo(new PolicyRun.Reclaims(1, List.of(120L), 2, List.of(120L)));

        PolicyReport report = PolicyReport.of(run, FLEET, 0);
        assertThat(report.sharing().preemptions()).isEqualTo(1);
        assertThat(report.sharing().gpuHoursLost()).isEqualTo(8 * (2 * 300 + 2 * 1_320) / 3600.0);
        assertThat(report.sharing().reclaimDelay().max()).isEqualTo(120);
        assertThat(report.sharing().preemptibleDelay().max()).isEqualTo(120);
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

    @Test
    void aJobPreemptedAsOftenAsItMayIsNoLongerPreemptibleItBorrowsOnlyWithinTheHorizonAndRunsToItsEnd() {
        // a2 declares a maximum run time of 2 h (twice its 3,000 s, rounded up to the hour): within the horizon
        var jobs = List.of(
                Fixtures.listed("a1", "a", 0, 0, 20_000, Fixtures.onDemand(P5, 2)),
                Fixtures.listed("a2", "a", 10, 0, 3_000, Fixtures.onDemand(P5, 2)),
                Fixtures.listed("b1", "b", 1_000, 0, 100, Fixtures.onDemand(P5, 2)),
                Fixtures.listed("b2", "b", 2_000, 0, 100, Fixtures.onDemand(P5, 2)));
        Lending once = new Lending(SharingPolicy.DEFAULT, SharingStrategy.LEND_AND_BORROW, BorrowLimit.UNLIMITED, 0,
                0L, true, 1800, 300, 1, 1);

        PolicyRun run = new QueueReplay(FLEET, false).run(
                new Policy.Queued("spillover", "shares", QueuePolicy.DEFAULT, Policy.Knowledge.HISTORY, once), jobs);

        // b1 reclaims a2's borrowed instances (stopped at 1,120); a2, preempted once of once, borrows again when b1
        // ends (its 2 h maximum run time is within the horizon), no longer preemptible: b2's reclaim passes it over
        // and stops a1, team a's other placement, which may still be preempted; a2 runs to its end
        JobRun a1 = run.runs().stream().filter(r -> r.job().id().equals("a1")).findFirst().orElseThrow();
        JobRun a2 = run.runs().stream().filter(r -> r.job().id().equals("a2")).findFirst().orElseThrow();
        JobRun b2 = run.runs().stream().filter(r -> r.job().id().equals("b2")).findFirst().orElseThrow();
        assertThat(a2.preempted()).hasSize(1);
        assertThat(a2.preempted().get(0).endSeconds()).isEqualTo(1_120);
        assertThat(a2.startSeconds()).isEqualTo(1_220);
        assertThat(a2.borrowed()).isTrue();
        assertThat(a2.endSeconds()).isEqualTo(1_220 + 300 + 3_000);
        assertThat(a1.preempted()).hasSize(1);
        assertThat(a1.preempted().get(0).endSeconds()).isEqualTo(2_120);
        assertThat(b2.startSeconds()).isEqualTo(2_120);
        assertThat(run.runs()).hasSize(4);
        assertThat(run.reclaims().preemptions()).isEqualTo(2);

        // allowed three preemptions, a2 (borrowed, so first in Kueue's order) is preempted again for b2
        PolicyRun thrice = new QueueReplay(FLEET, false).run(new Policy.Queued("spillover", "shares",
                QueuePolicy.DEFAULT, Policy.Knowledge.HISTORY, new Lending(SharingPolicy.DEFAULT,
                SharingStrategy.LEND_AND_BORROW, BorrowLimit.UNLIMITED, 0, 0L, true, 1800, 300, 3, 1)), jobs);
        JobRun a2Thrice = thrice.runs().stream().filter(r -> r.job().id().equals("a2")).findFirst().orElseThrow();
        JobRun a1Thrice = thrice.runs().stream().filter(r -> r.job().id().equals("a1")).findFirst().orElseThrow();
        assertThat(a2Thrice.preempted()).hasSize(2);
        assertThat(a1Thrice.preempted()).isEmpty();
        assertThat(thrice.runs()).hasSize(4);
    }

    @Test
    void withShorterFirstALongJobGivesWayToItsShortTeammateAndResumesFromItsCheckpointOnItsOtherEntry() {
        // l (preemptible: it runs over 10,000 s) starts on p5 when x ends; s, its teammate of at most 1 h, fits nowhere
        // at 2,500 and l may run 55 h more: l is stopped after the grace, and resumes at once on its g5 entry
        Fleet fleet = new Fleet(Fixtures.CATALOG, Map.of(OfferingKey.onDemand(Fixtures.EAST, P5), 2,
                OfferingKey.onDemand(Fixtures.EAST, Fixtures.G5), 2), List.of(), Map.of(),
                TeamRules.quota(Map.of(P5, 2, Fixtures.G5, 2)).withSharing(SharingStrategy.LEND_AND_BORROW,
                        BorrowLimit.UNLIMITED));
        var jobs = List.of(
                Fixtures.listed("x", "v", 0, 0, 500, Fixtures.onDemand(P5, 2)),
                Fixtures.listed("l", "v", 10, 0, 100_000, Fixtures.onDemand(P5, 2), Fixtures.onDemand(Fixtures.G5, 2)),
                Fixtures.listed("s", "v", 2_500, 0, 1_000, Fixtures.onDemand(P5, 2)));
        Lending longOnes = new Lending(SharingPolicy.DEFAULT.withShorterFirst(SharingPolicy.SHORTER_FIRST_RATIO),
                SharingStrategy.LEND_AND_BORROW, BorrowLimit.UNLIMITED, 0, 10_000L, true, 1800, 300, 3, 1);
        var policy = new Policy.Queued("shorter-first", "in-team preemption", QueuePolicy.DEFAULT,
                Policy.Knowledge.HISTORY, longOnes);

        PolicyRun run = new QueueReplay(fleet, false).run(policy, jobs);

        assertThat(Fixtures.starts(run)).containsExactly("l:2620:" + Fixtures.G5 + ":on-demand",
                "s:2620:" + P5 + ":on-demand", "x:0:" + P5 + ":on-demand");
        JobRun l = run.runs().stream().filter(r -> r.job().id().equals("l")).findFirst().orElseThrow();
        assertThat(l.preempted()).containsExactly(new JobRun.Attempt(500, 2_620, Fixtures.onDemand(P5, 2), false,
                320)); // 2,120 s run, the checkpoint at 1,800 s kept: 320 s lost
        assertThat(l.restartSeconds()).isEqualTo(300);
        assertThat(l.endSeconds()).isEqualTo(2_620 + 300 + 100_000 - 1_800);
        assertThat(run.reclaims().preemptions()).isEqualTo(1);
    }
}
