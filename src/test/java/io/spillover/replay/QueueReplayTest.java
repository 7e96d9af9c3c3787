package io.spillover.replay;

import static io.spillover.replay.Fixtures.G5;
import static io.spillover.replay.Fixtures.P4D;
import static io.spillover.replay.Fixtures.P5;
import static io.spillover.replay.Fixtures.job;
import static io.spillover.replay.Fixtures.starts;
import static org.assertj.core.api.Assertions.assertThat;

import io.spillover.placement.QueuePolicy;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Policies (a) and (b): Spillover's queue in virtual time. */
class QueueReplayTest {

    @Test
    void aSingleTypeJobWaitsForItsTypeWhileAPreferenceListFallsBack() {
        ReplayConfig config = Fixtures.p5First(1, 1, 0);
        var jobs = Fixtures.jobs(config, List.of(job("a", "t", 0, 8, 1000), job("b", "t", 10, 8, 1000)));
        var replay = new QueueReplay(Fleet.of(config, Fixtures.CATALOG), false);

        PolicyRun single = replay.run(new Policy.SingleType(), jobs);
        PolicyRun lists = replay.run(new Policy.PreferenceLists(), jobs);

        assertThat(starts(single)).containsExactly("a:0:" + P5 + ":on-demand", "b:1000:" + P5 + ":on-demand");
        assertThat(starts(lists)).containsExactly("a:0:" + P5 + ":on-demand", "b:10:" + P4D + ":on-demand");
        // p4d runs at half the v100 column's speed in this fleet
        assertThat(lists.runs().get(1).runSeconds()).isEqualTo(2000);
        assertThat(lists.runs().get(1).choice()).isEqualTo(1);
    }

    @Test
    void releasedCapacityGoesToTheOldestJobThatFitsAndABigJobDoesNotBlockASmallerOne() {
        ReplayConfig config = Fixtures.p5First(2, 0, 0);
        var jobs = Fixtures.jobs(config, List.of(job("first", "t", 0, 8, 100), job("other", "t", 0, 8, 1000),
                job("big", "t", 10, 16, 100), job("small", "t", 20, 8, 5000)));

        PolicyRun run = new QueueReplay(Fleet.of(config, Fixtures.CATALOG), false).run(new Policy.SingleType(), jobs);

        assertThat(starts(run)).containsExactly("big:5100:" + P5 + ":on-demand", "first:0:" + P5 + ":on-demand",
                "other:0:" + P5 + ":on-demand", "small:100:" + P5 + ":on-demand");
    }

    @Test
    void aPatientJobWaitsForItsFirstChoiceThenFallsBackAtTheTimer() {
        ReplayConfig config = Fixtures.p5First(1, 1, 0);
        var jobs = Fixtures.jobs(config, List.of(job("a", "t", 0, 8, 10_000), job("b", "t", 10, 8, 10_000)));
        var policy = new Policy.Queued("patient", "patient", QueuePolicy.DEFAULT.withFallbackAfter(
                java.time.Duration.ofMinutes(10)));

        PolicyRun run = new QueueReplay(Fleet.of(config, Fixtures.CATALOG), false).run(policy, jobs);

        // b's entry 1 opens 10 min after its submission; nothing frees before, the revisit places it
        assertThat(starts(run)).containsExactly("a:0:" + P5 + ":on-demand", "b:610:" + P4D + ":on-demand");
    }

    @Test
    void theShortcutsMakeTheDecisionsOfWholeQueuePasses() {
        ReplayConfig config = Fixtures.config(Map.of(P5, 0.5, P4D, 0.3, G5, 0.2), 3, 4, 6, List.of());
        var jobs = Fixtures.jobs(config, Fixtures.randomTrace(11, 400));
        var fleet = Fleet.of(config, Fixtures.CATALOG);
        var names = java.util.Set.of("preference-list", "no-sharing", "no-precedence", "with-patience",
                "with-fair-share", "no-shortest-first");

        var policies = new java.util.ArrayList<>(config.policies().stream().filter(p -> names.contains(p.name()))
                .toList());
        policies.add(new Policy.Queued("holds-after-1h", "holds soon", QueuePolicy.DEFAULT.withReserveAfter(
                java.time.Duration.ofHours(1))));
        assertThat(policies).hasSize(names.size() + 1);
        for (Policy policy : policies) {
            PolicyRun fast = new QueueReplay(fleet, false).run(policy, jobs);
            PolicyRun exact = new QueueReplay(fleet, true).run(policy, jobs);

            assertThat(starts(fast)).as(policy.name()).hasSize(400).isEqualTo(starts(exact));
            assertThat(fast.runs()).anyMatch(r -> r.waitSeconds() > 3_600);
            assertThat(fast.evaluations()).isLessThan(exact.evaluations());
        }
    }

    @Test
    void theShortcutsMakeTheDecisionsOfWholeQueuePassesWhenTeamsLendBorrowAndReclaim() {
        ReplayConfig config = Fixtures.withQuotaShare(Fixtures.config(Map.of(P5, 0.5, P4D, 0.3, G5, 0.2), 3, 4, 6,
                List.of()), 0.5);
        var jobs = Fixtures.jobs(config, Fixtures.randomTrace(11, 400));
        var fleet = Fleet.of(config, Fixtures.CATALOG);

        var policies = config.policies().stream().filter(p -> p instanceof Policy.Queued q && q.lending().enabled()
                && List.of("spillover", "when-can-borrow-try-next-entry", "no-preemption").contains(p.name()))
                .toList();
        assertThat(policies).hasSize(3);
        for (Policy policy : policies) {
            PolicyRun fast = new QueueReplay(fleet, false).run(policy, jobs);
            PolicyRun exact = new QueueReplay(fleet, true).run(policy, jobs);

            assertThat(starts(fast)).as(policy.name()).hasSize(400).isEqualTo(starts(exact));
            assertThat(fast.reclaims()).as(policy.name()).isEqualTo(exact.reclaims());
            assertThat(fast.reclaims().borrowedStarts()).as(policy.name()).isPositive();
        }
    }

    @Test
    void eachTeamIsHeldToItsOwnQuotaCapsAndPriorities() {
        var p5 = io.spillover.placement.OfferingKey.onDemand(Fixtures.EAST, P5);
        Fleet fleet = new Fleet(Fixtures.CATALOG, Map.of(p5, 4), List.of(),
                Map.of("capped", new TeamRules(Map.of(P5, 4), null, 1, false, 1),
                        "ranked", new TeamRules(Map.of(P5, 1), null, null, false, 1)), null);
        var jobs = List.of(
                Fixtures.listed("c1", "capped", 0, 0, 100, Fixtures.onDemand(P5, 1)),
                Fixtures.listed("c2", "capped", 0, 0, 100, Fixtures.onDemand(P5, 1)),
                Fixtures.listed("r-low", "ranked", 1, 0, 50, Fixtures.onDemand(P5, 1)),
                Fixtures.listed("r-high", "ranked", 1, 5, 50, Fixtures.onDemand(P5, 1)));

        PolicyRun run = new QueueReplay(fleet, false).run(new Policy.PreferenceLists(), jobs);

        // capped may run one job at a time; ranked may hold one p5, and its higher priority goes first
        assertThat(starts(run)).containsExactly("c1:0:" + P5 + ":on-demand", "c2:100:" + P5 + ":on-demand",
                "r-high:1:" + P5 + ":on-demand", "r-low:51:" + P5 + ":on-demand");
    }

    @Test
    void aReplayStartsFromTheRunsThatHoldInstancesWhenItBeginsAndTellsItsProgress() {
        var p5 = io.spillover.placement.OfferingKey.onDemand(Fixtures.EAST, P5);
        Fleet fleet = new Fleet(Fixtures.CATALOG, Map.of(p5, 2), List.of(), Map.of(), TeamRules.quota(Map.of(P5, 2)));
        var jobs = List.of(Fixtures.listed("a", "t", 10, 0, 100, Fixtures.onDemand(P5, 1)),
                Fixtures.listed("b", "t", 20, 0, 100, Fixtures.onDemand(P5, 1)));
        var told = new java.util.ArrayList<String>();

        PolicyRun run = new QueueReplay(fleet, false).run(new Policy.PreferenceLists(), jobs,
                List.of(new Holding("other", Fixtures.onDemand(P5, 1), 500)), (started, of) -> told.add(started + "/" + of));

        // one p5 is held until 500 by a run from before, and the team "other" is held to the same quota
        assertThat(starts(run)).containsExactly("a:10:" + P5 + ":on-demand", "b:110:" + P5 + ":on-demand");
        assertThat(told).containsExactly("1/2", "2/2");
    }
}
