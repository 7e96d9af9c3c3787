package io.spillover.replay;

import java.util.List;
import java.util.Map;

/**
 * Everything a replay reports: what was replayed (and what was left out, so nothing is cut silently), on
 * which fleet, and the figures per policy.
 *
 * @param window             which jobs of the trace were replayed, in words
 * @param unplaceable        jobs no offering of the fleet could ever hold (too many instances for any
 *                           offering or quota); replayed under no policy
 * @param infeasibleEntries  entries left out of lists because the job could never get them there
 * @param entriesBeyondFive  entries left out because a list holds at most five
 * @param offerings          each offering and its instances
 * @param quotas             every team's per-type quota
 * @param runtimes           how a job's run time on each type follows from the trace
 * @param goals              the queue-policy issue's goals, as this replay meets them or not
 * @param estimates          how well starts were estimated on the default policy's replay, null when not measured
 */
public record ReplayResult(String trace, String configuration, String window, int jobsInTrace, int jobsSelected,
                           int jobsReplayed, List<String> unplaceable, int infeasibleEntries, int entriesBeyondFive,
                           Map<String, Integer> offerings, Map<String, List<String>> plans, Map<String, Integer> quotas,
                           Map<String, String> runtimes, Map<String, Double> firstChoiceWeights, int teams,
                           List<PolicyReport> policies, List<Goals> goals, EstimateReport estimates) {

    public ReplayResult {
        unplaceable = List.copyOf(unplaceable);
        policies = List.copyOf(policies);
        goals = List.copyOf(goals);
    }
}
