package io.spillover.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The goals: each figure of the default policy against the better script's, one at a time, and the sharing issue's
 * own: no team worse off for lending, the lender's reclaim delay, work lost to preemption.
 */
class GoalsTest {

    @Test
    void eachFigureIsMeasuredAgainstTheLowerOfTheScriptsFiguresAndSaysWhetherItIsMet() {
        List<PolicyReport> reports = List.of(
                report("single-type", 1000, 5000, 9000, 0.2, 0.999),
                report("spillover", 40, 300, 900, 0.96, 0.995),
                report("polling-60s-x3", 50, 500, 1000, 0.7, 0.98),
                report("polling-30s-x3", 60, 360, 800, 0.7, 0.98));

        List<Goals> goals = Goals.of(reports, 0.95, Lending.OFF);

        assertThat(goals).extracting(Goals::goal, g -> Math.round(g.achieved() * 1000) / 1000.0, Goals::met)
                .containsExactly(
                        tuple("mean wait ÷ the better polling script's", 0.8, true),
                        tuple("p95 wait ÷ the better polling script's", 0.833, false),
                        tuple("p99 wait ÷ the better polling script's", 1.125, false),
                        tuple("mean completion ÷ the better polling script's", 0.8, true),
                        tuple("mean wait ÷ single-type's", 0.04, true),
                        tuple("p95 wait ÷ single-type's", 0.06, true),
                        tuple("Jain's index over per-team mean slowdown", 0.96, true),
                        tuple("plan utilization while a job listing the plan waits", 0.995, true));
    }

    @Test
    void sharingIsMeasuredAgainstTheFreeForAllTheHardQuotasAndTheLendersBound() {
        var shared = report("spillover", 40, 300, 900, 0.8, 1, Map.of("a", 100.0, "b", 3000.0, "c", 1000.0),
                new PolicyReport.Sharing(10, 4, 4, 1000, 15, 2, PolicyReport.Distribution.of(new long[] {60, 600}),
                        PolicyReport.Distribution.of(new long[] {60, 200})));
        var hard = report("no-sharing", 50, 300, 900, 0.8, 1, Map.of("a", 0.0, "b", 2000.0, "c", 960.0),
                PolicyReport.Sharing.NONE);
        List<PolicyReport> reports = List.of(report("single-type", 1000, 5000, 9000, 0.2, 0.999), shared, hard,
                report("polling-60s-x3", 50, 500, 1000, 0.85, 0.98),
                report("polling-60s-x3-no-quotas", 20, 200, 400, 0.9, 0.98));

        List<Goals> goals = Goals.of(reports, null, new ReplayConfig.Sharing(null, null, null, null, null, null, null,
                null, null, null, null, null, null, null).lending(1));

        assertThat(goals).extracting(Goals::goal, g -> Math.round(g.achieved() * 1000) / 1000.0, Goals::met)
                .contains(
                        tuple("mean completion ÷ the better free-for-all script's", 2.0, false),
                        tuple("Jain's index over per-team mean slowdown, against the better script's", 0.8, false),
                        // a waits 100 s more (within 2 min), c 40 s more (within 5 %); b 1,000 s more
                        tuple("teams whose mean wait exceeds theirs with hard quotas by more than max(5 %, 2 min)",
                                1.0, false),
                        tuple("lender's reclaim delay p99, within the borrow horizon", 600.0, true),
                        // one claim waited for a bounded borrower (600 s); the one preemptible borrowers held, 200 s
                        tuple("lender's reclaim delay p99 for preemptible borrowers, within the grace and a cycle",
                                200.0, false),
                        tuple("GPU-hours lost to preemption ÷ GPU-hours run", 0.015, true));
        assertThat(Goals.worseOff(shared, hard)).containsExactly("b");
    }

    @Test
    void aReplayWithoutTheDefaultPolicyOrAScriptHasNoGoals() {
        assertThat(Goals.of(List.of(report("spillover", 1, 1, 1, 1, 1), report("single-type", 1, 1, 1, 1, 1)), 0.9,
                Lending.OFF)).isEmpty();
    }

    static PolicyReport report(String policy, double mean, long p95, long p99, double jain, double planWhileWaiting) {
        return report(policy, mean, p95, p99, jain, planWhileWaiting, Map.of(), PolicyReport.Sharing.NONE);
    }

    static PolicyReport report(String policy, double mean, long p95, long p99, double jain,
                                       double planWhileWaiting, Map<String, Double> waitByTeam,
                                       PolicyReport.Sharing sharing) {
        return new PolicyReport(policy, policy, 1, 1, 0, new PolicyReport.Distribution(mean, 0, p95, p99, p99), 1,
                List.of(1, 0, 0, 0, 0), 1, mean, 1, 1, 1, 1, Map.of(), Map.of(), waitByTeam, Map.of(), jain, 0,
                planWhileWaiting, 1, 1, 1, 1, sharing);
    }
}
