package io.spillover.whatif;

import io.spillover.placement.PlanState;
import io.spillover.placement.QueuePolicy;
import io.spillover.replay.Fleet;
import io.spillover.replay.TeamRules;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** What one side of a what-if run replays on, as kept with the run: the fleet, plans, teams and queue policy. */
public record Configuration(List<Offering> offerings, List<Plan> plans, List<Team> teams, Queue queue) {

    /** @param offering in words: "on-demand ml.p5.48xlarge in us-east-1", "plan h100-q4" */
    public record Offering(String offering, String region, String instanceType, String source, int instances) {
    }

    public record Plan(String name, String instanceType, String region, int instances, String status,
                       List<String> teams) {
    }

    public record Team(String name, int weight, Map<String, Integer> instanceLimits, Integer maxAccelerators,
                       Integer maxConcurrentJobs, boolean strictFifo) {
    }

    /**
     * @param holdAfterSeconds null when no job holds instances
     * @param precedenceLapse  the response ratio at which precedence lapses for a job; 0 never
     * @param holdAfterRun     whether a job holds only once it has also waited as long as its expected run
     */
    public record Queue(boolean precedence, long fallbackAfterSeconds, boolean fairShare, long shareDecaySeconds,
                        boolean shortestFirst, Long holdAfterSeconds, double precedenceLapse, boolean holdAfterRun) {
    }

    static Configuration of(Scenario scenario) {
        Fleet fleet = scenario.fleet();
        List<Offering> offerings = fleet.offerings().stream().map(k -> new Offering(k.describe(), k.region(),
                k.instanceType(), k.source(), fleet.total(k))).toList();
        List<Plan> plans = fleet.plans().stream().map(p -> plan(p, fleet.total(p.offering()))).toList();
        List<Team> teams = new TreeMap<>(fleet.teams()).entrySet().stream().map(e -> team(e.getKey(), e.getValue()))
                .toList();
        QueuePolicy policy = scenario.policy();
        return new Configuration(offerings, plans, teams, new Queue(policy.precedence(),
                policy.fallbackAfter().toSeconds(), policy.fairShare(), policy.shareHalfLife().toSeconds(),
                policy.shortestFirst(), policy.reserveAfter() == null ? null : policy.reserveAfter().toSeconds(),
                policy.precedenceLapse(), policy.holdAfterRun()));
    }

    private static Plan plan(PlanState plan, int instances) {
        return new Plan(plan.name(), plan.instanceType(), plan.region(), instances, plan.status().name(),
                plan.teams().stream().sorted().toList());
    }

    private static Team team(String name, TeamRules rules) {
        return new Team(name, rules.weight(), new TreeMap<>(rules.instanceLimits()), rules.maxAccelerators(),
                rules.maxConcurrentJobs(), rules.strictFifo());
    }
}
