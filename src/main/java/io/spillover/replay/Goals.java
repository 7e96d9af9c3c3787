package io.spillover.replay;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/**
 * The goals of the queue-policy and sharing issues, checked on one replay: the platform's default policy
 * ({@code spillover}, guarantees lent and borrowed) against the better polling script under the same quotas on each
 * figure, against the better free-for-all script on completion, against itself with hard quotas (no team worse off
 * for lending), against single-type jobs, and on fairness, reclaim delay, work lost to preemption and plan use.
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
    /** The same policy with hard quotas, as before sharing. */
    public static final String WITHOUT_SHARING = "no-sharing";
    /** What a polling script's name ends with when every quota is lifted. */
    public static final String FREE_FOR_ALL = "-no-quotas";

    /** No team worse off for lending: its mean wait may grow by the larger of this share and {@link #SLACK_SECONDS}. */
    static final double SLACK_SHARE = 0.05;
    static final double SLACK_SECONDS = 120;

    public boolean met() {
        return atMost ? achieved <= target : achieved >= target;
    }

    /**
     * @param fairnessTarget Jain's index to reach, or null for the better polling script's in the same replay
     * @param lending        the replay's lending, for the bound of the lender's reclaim delay
     * @return empty when the replay lacks the default policy, a polling script or single-type jobs
     */
    public static List<Goals> of(List<PolicyReport> reports, Double fairnessTarget, Lending lending) {
        Optional<PolicyReport> policy = named(reports, POLICY);
        Optional<PolicyReport> single = named(reports, "single-type");
        List<PolicyReport> polling = reports.stream()
                .filter(r -> r.policy().startsWith("polling-") && !r.policy().endsWith(FREE_FOR_ALL)).toList();
        List<PolicyReport> freeForAll = reports.stream()
                .filter(r -> r.policy().startsWith("polling-") && r.policy().endsWith(FREE_FOR_ALL)).toList();
        if (policy.isEmpty() || single.isEmpty() || polling.isEmpty()) {
            return List.of();
        }
        PolicyReport p = policy.get();
        var goals = new ArrayList<Goals>();
        goals.add(ratio("mean wait ÷ the better polling script's", p, polling, r -> r.queueingDelay().mean(), 0.8));
        goals.add(ratio("p95 wait ÷ the better polling script's", p, polling, r -> r.queueingDelay().p95(), 0.8));
        goals.add(ratio("p99 wait ÷ the better polling script's", p, polling, r -> r.queueingDelay().p99(), 1.0));
        goals.add(ratio("mean completion ÷ the better polling script's", p, polling,
                PolicyReport::meanCompletionSeconds, 1.0));
        if (!freeForAll.isEmpty()) {
            goals.add(ratio("mean completion ÷ the better free-for-all script's", p, freeForAll,
                    PolicyReport::meanCompletionSeconds, 1.0));
        }
        goals.add(ratio("mean wait ÷ single-type's", p, single.stream().toList(), r -> r.queueingDelay().mean(), 0.5));
        goals.add(ratio("p95 wait ÷ single-type's", p, single.stream().toList(), r -> r.queueingDelay().p95(), 0.5));
        double fairness = fairnessTarget != null ? fairnessTarget
                : polling.stream().mapToDouble(PolicyReport::fairness).max().orElseThrow();
        goals.add(new Goals(fairnessTarget != null ? "Jain's index over per-team mean slowdown"
                : "Jain's index over per-team mean slowdown, against the better script's", p.fairness(), fairness,
                false));
        named(reports, WITHOUT_SHARING).ifPresent(hard -> goals.add(new Goals(
                "teams whose mean wait exceeds theirs with hard quotas by more than max(5 %, 2 min)",
                worseOff(p, hard).size(), 0, true)));
        if (lending.enabled()) {
            goals.add(new Goals("lender's reclaim delay p99, within the borrow horizon",
                    p.sharing().reclaimDelay().p99(), lending.policy().borrowHorizon().toSeconds(), true));
            goals.add(new Goals("lender's reclaim delay p99 for preemptible borrowers, within the grace and a cycle",
                    p.sharing().preemptibleDelay().p99(), lending.policy().reclaimBound().toSeconds(), true));
            goals.add(new Goals("GPU-hours lost to preemption ÷ GPU-hours run", p.sharing().lostShare(), 0.02, true));
        }
        goals.add(new Goals("plan utilization while a job listing the plan waits", p.planUtilizationWhileWaiting(),
                0.99, false));
        return goals;
    }

    /** The teams that wait longer under {@code shared} than under {@code hard}, past the slack, by name. */
    public static List<String> worseOff(PolicyReport shared, PolicyReport hard) {
        var worse = new ArrayList<String>();
        for (Map.Entry<String, Double> team : shared.meanWaitByTeamSeconds().entrySet()) {
            if (worse(team.getValue(), hard.meanWaitByTeamSeconds().getOrDefault(team.getKey(), 0.0))) {
                worse.add(team.getKey());
            }
        }
        return worse;
    }

    /** Whether a team's mean wait shared exceeds its mean wait with hard quotas by more than the slack. */
    static boolean worse(double sharedSeconds, double hardSeconds) {
        return sharedSeconds > hardSeconds + Math.max(SLACK_SHARE * hardSeconds, SLACK_SECONDS);
    }

    private static Optional<PolicyReport> named(List<PolicyReport> reports, String name) {
        return reports.stream().filter(r -> r.policy().equals(name)).findFirst();
    }

    private static Goals ratio(String goal, PolicyReport policy, List<PolicyReport> others,
                               ToDoubleFunction<PolicyReport> figure, double target) {
        double best = others.stream().mapToDouble(figure).min().orElseThrow();
        return new Goals(goal, best == 0 ? 0 : figure.applyAsDouble(policy) / best, target, true);
    }
}
