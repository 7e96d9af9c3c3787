package io.spillover.replay;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/**
 * The queue-policy issue's goals, checked on one replay: the platform's default policy ({@code spillover})
 * against the better polling script on each figure, against single-type jobs, and on fairness and plan use.
 * "Better" is per figure: the lower of the scripts' means is the mean to beat, the lower p95 the p95.
 *
 * @param goal     in words
 * @param achieved the default policy's figure, as a ratio where the goal is one
 * @param target   the goal's bound
 * @param atMost   whether the figure must be at most the target (else at least)
 */
public record Goals(String goal, double achieved, double target, boolean atMost) {

    /** The policy the goals are about. */
    public static final String POLICY = "spillover";

    public boolean met() {
        return atMost ? achieved <= target : achieved >= target;
    }

    /**
     * @param fairnessTarget Jain's index to reach: 0.95 on the default fleet, 0.9 on the scarce one
     * @return empty when the replay lacks the default policy, a polling script or single-type jobs
     */
    public static List<Goals> of(List<PolicyReport> reports, double fairnessTarget) {
        Optional<PolicyReport> policy = reports.stream().filter(r -> r.policy().equals(POLICY)).findFirst();
        Optional<PolicyReport> single = reports.stream().filter(r -> r.policy().equals("single-type")).findFirst();
        List<PolicyReport> polling = reports.stream().filter(r -> r.policy().startsWith("polling-")).toList();
        if (policy.isEmpty() || single.isEmpty() || polling.isEmpty()) {
            return List.of();
        }
        PolicyReport p = policy.get();
        var goals = new ArrayList<Goals>();
        goals.add(ratio("mean wait ÷ the better polling script's", p, polling, r -> r.queueingDelay().mean(), 0.8));
        goals.add(ratio("p95 wait ÷ the better polling script's", p, polling, r -> r.queueingDelay().p95(), 0.8));
        goals.add(ratio("mean wait ÷ single-type's", p, single.stream().toList(), r -> r.queueingDelay().mean(), 0.5));
        goals.add(ratio("p95 wait ÷ single-type's", p, single.stream().toList(), r -> r.queueingDelay().p95(), 0.5));
        goals.add(ratio("p99 wait ÷ the better polling script's", p, polling, r -> r.queueingDelay().p99(), 1.0));
        goals.add(new Goals("Jain's index over per-team mean slowdown", p.fairness(), fairnessTarget, false));
        goals.add(new Goals("plan utilization while a job listing the plan waits", p.planUtilizationWhileWaiting(),
                0.99, false));
        return goals;
    }

    private static Goals ratio(String goal, PolicyReport policy, List<PolicyReport> others,
                               ToDoubleFunction<PolicyReport> figure, double target) {
        double best = others.stream().mapToDouble(figure).min().orElseThrow();
        return new Goals(goal, best == 0 ? 0 : figure.applyAsDouble(policy) / best, target, true);
    }
}
