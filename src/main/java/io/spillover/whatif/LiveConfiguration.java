package io.spillover.whatif;

import io.spillover.capacity.CapacityService;
import io.spillover.capacity.Offering;
import io.spillover.catalog.Catalog;
import io.spillover.placement.OfferingKey;
import io.spillover.plans.PlanService;
import io.spillover.queue.FairShares;
import io.spillover.replay.Fleet;
import io.spillover.replay.TeamRules;
import io.spillover.tenancy.Queueing;
import io.spillover.tenancy.TeamService;
import io.spillover.tenancy.TeamView;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.stereotype.Component;

/**
 * The platform as it is now, read for a what-if run's baseline: every offering's capacity (marks of unavailability
 * left out), the training plans with their status, each team's quota, caps, queueing and weight, and the queue
 * policy. Only reads.
 */
@Component
class LiveConfiguration {

    private final CapacityService capacity;
    private final PlanService plans;
    private final TeamService teams;
    private final FairShares fairShares;
    private final Catalog catalog;

    LiveConfiguration(CapacityService capacity, PlanService plans, TeamService teams, FairShares fairShares,
                      Catalog catalog) {
        this.capacity = capacity;
        this.plans = plans;
        this.teams = teams;
        this.fairShares = fairShares;
        this.catalog = catalog;
    }

    Scenario read() {
        var totals = new LinkedHashMap<OfferingKey, Integer>();
        capacity.offerings().stream().sorted(Comparator.comparing((Offering o) -> o.key().isPlan())
                        .thenComparing(o -> o.key().region()).thenComparing(o -> o.key().instanceType())
                        .thenComparing(o -> o.key().source()))
                .forEach(o -> totals.put(o.key(), o.total()));
        Map<String, TeamRules> rules = new LinkedHashMap<>();
        for (TeamView team : teams.list()) {
            rules.put(team.name(), new TeamRules(team.quotas().instanceLimits(), team.quotas().maxAccelerators(),
                    team.quotas().maxConcurrentJobs(), team.queueing() == Queueing.STRICT_FIFO, team.weight()));
        }
        return Scenario.of(new Fleet(catalog, totals, plans.plans(), rules, null), fairShares.policy());
    }

    Catalog catalog() {
        return catalog;
    }
}
