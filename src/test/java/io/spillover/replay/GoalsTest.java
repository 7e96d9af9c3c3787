package io.spillover.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The queue-policy issue's goals: each figure of the default policy against the better script's, one at a time. */
class GoalsTest {

    @Test
    void eachFigureIsMeasuredAgainstTheLowerOfTheScriptsFiguresAndSaysWhetherItIsMet() {
        List<PolicyReport> reports = List.of(
                report("single-type", 1000, 5000, 9000, 0.2, 0.999),
                report("spillover", 40, 300, 900, 0.96, 0.995),
                report("polling-60s-x3", 50, 500, 1000, 0.7, 0.98),
                report("polling-30s-x3", 60, 360, 800, 0.7, 0.98));

        List<Goals> goals = Goals.of(reports, 0.95);

        assertThat(goals).extracting(Goals::goal, g -> Math.round(g.achieved() * 1000) / 1000.0, Goals::met)
                .containsExactly(
                        tuple("mean wait ÷ the better polling script's", 0.8, true),
                        tuple("p95 wait ÷ the better polling script's", 0.833, false),
                        tuple("mean wait ÷ single-type's", 0.04, true),
                        tuple("p95 wait ÷ single-type's", 0.06, true),
                        tuple("p99 wait ÷ the better polling script's", 1.125, false),
                        tuple("Jain's index over per-team mean slowdown", 0.96, true),
                        tuple("plan utilization while a job listing the plan waits",
                                0.995, true));
    }

    @Test
    void aReplayWithoutTheDefaultPolicyOrAScriptHasNoGoals() {
        assertThat(Goals.of(List.of(report("spillover", 1, 1, 1, 1, 1), report("single-type", 1, 1, 1, 1, 1)), 0.9))
                .isEmpty();
    }

    private static PolicyReport report(String policy, double mean, long p95, long p99, double jain, double planWhileWaiting) {
        return new PolicyReport(policy, policy, 1, 1, 0, new PolicyReport.Distribution(mean, 0, p95, p99, p99), 1,
                List.of(1, 0, 0, 0, 0), 1, 1, 1, 1, 1, 1, Map.of(), Map.of(), Map.of(), Map.of(), jain, 0,
                planWhileWaiting, 1, 1, 1, 1);
    }
}
