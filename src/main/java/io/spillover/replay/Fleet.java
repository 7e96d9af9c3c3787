package io.spillover.replay;

import io.spillover.catalog.Catalog;
import io.spillover.placement.OfferingKey;
import io.spillover.placement.PlanState;
import io.spillover.placement.PlanStatus;
import io.spillover.placement.TeamState;
import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The capacity a replay runs on, as the placement core sees it: offerings (on demand and training plans) with
 * their totals, the plans with the teams they serve, and the rules each team is held to. Immutable; the
 * {@code with} methods make the fleet of a what-if change.
 */
public final class Fleet {

    private final Catalog catalog;
    private final Map<OfferingKey, Integer> totals;
    private final Map<String, PlanState> plans;
    private final Map<String, TeamRules> teams;
    private final TeamRules otherTeams;

    /**
     * @param totals     every offering's instances, in the order reports list them; a plan's offering is its own
     * @param plans      the training plans; each keeps its status for the whole replay
     * @param teams      the rules of the teams known by name
     * @param otherTeams the rules of any other team, or null when a team must be known by name
     */
    public Fleet(Catalog catalog, Map<OfferingKey, Integer> totals, Collection<PlanState> plans,
                 Map<String, TeamRules> teams, TeamRules otherTeams) {
        this.catalog = catalog;
        this.totals = new LinkedHashMap<>(totals);
        this.plans = new LinkedHashMap<>();
        plans.forEach(plan -> {
            if (this.plans.put(plan.name(), plan) != null) {
                throw new IllegalArgumentException("plan " + plan.name() + " is listed twice");
            }
        });
        this.teams = new LinkedHashMap<>(teams);
        this.otherTeams = otherTeams;
        this.totals.forEach((key, total) -> {
            if (total < 0) {
                throw new IllegalArgumentException(key.describe() + " cannot have " + total + " instances");
            }
            catalog.get(key.instanceType());
        });
    }

    /**
     * The benchmark's fleet from its file: on-demand offerings and plans ACTIVE throughout, every team with the
     * same quota, a share of each type's instances (on demand and in plans) rounded up, and the file's sharing
     * strategy and borrow limit (used only by the policies that share).
     */
    public static Fleet of(ReplayConfig config, Catalog catalog) {
        TraceModel model = TraceModel.of(config, catalog);
        var totals = new LinkedHashMap<OfferingKey, Integer>();
        for (ReplayConfig.OnDemand offering : config.onDemand()) {
            model.type(offering.instanceType());
            if (totals.put(OfferingKey.onDemand(offering.region(), offering.instanceType()), offering.instances()) != null) {
                throw new IllegalArgumentException("on-demand " + offering.instanceType() + " in " + offering.region()
                        + " is listed twice");
            }
        }
        var plans = new LinkedHashMap<String, PlanState>();
        for (ReplayConfig.Plan plan : config.plans()) {
            model.type(plan.instanceType());
            var state = new PlanState(plan.name(), plan.instanceType(), plan.region(), PlanStatus.ACTIVE,
                    Instant.EPOCH, null, Set.copyOf(plan.teams()));
            if (plans.put(plan.name(), state) != null) {
                throw new IllegalArgumentException("plan " + plan.name() + " is listed twice");
            }
            totals.put(state.offering(), plan.instances());
        }
        var quotas = new LinkedHashMap<String, Integer>();
        for (ReplayConfig.TypeSpec type : model.types()) {
            int instances = totals.entrySet().stream().filter(e -> e.getKey().instanceType().equals(type.instanceType()))
                    .mapToInt(Map.Entry::getValue).sum();
            quotas.put(type.instanceType(), (int) Math.ceil(config.teamQuotaShare() * instances));
        }
        Lending lending = config.lending();
        return new Fleet(catalog, totals, plans.values(), Map.of(),
                TeamRules.quota(quotas).withSharing(lending.strategy(), lending.borrowLimit()));
    }

    public Catalog catalog() {
        return catalog;
    }

    /** Every offering, on demand and plans, in the order given. */
    public Collection<OfferingKey> offerings() {
        return totals.keySet();
    }

    public int total(OfferingKey offering) {
        return totals.getOrDefault(offering, 0);
    }

    public int totalInstances() {
        return totals.values().stream().mapToInt(Integer::intValue).sum();
    }

    public int planInstances() {
        return totals.entrySet().stream().filter(e -> e.getKey().isPlan()).mapToInt(Map.Entry::getValue).sum();
    }

    public List<PlanState> plans() {
        return List.copyOf(plans.values());
    }

    public Optional<PlanState> plan(String name) {
        return Optional.ofNullable(plans.get(name));
    }

    public Map<String, PlanState> plansVisibleTo(String team) {
        var visible = new LinkedHashMap<String, PlanState>();
        plans.values().stream().filter(p -> p.visibleTo(team)).forEach(p -> visible.put(p.name(), p));
        return visible;
    }

    /** The teams known by name, with their rules. */
    public Map<String, TeamRules> teams() {
        return Map.copyOf(teams);
    }

    /** The rules any team not known by name is held to; empty when such a team cannot run. */
    public Optional<TeamRules> otherTeams() {
        return Optional.ofNullable(otherTeams);
    }

    public boolean knows(String team) {
        return teams.containsKey(team) || otherTeams != null;
    }

    /** The team's rules: its own, else those of any other team. */
    public TeamRules rules(String team) {
        TeamRules rules = teams.get(team);
        if (rules == null && otherTeams == null) {
            throw new IllegalArgumentException("unknown team " + team);
        }
        return rules != null ? rules : otherTeams;
    }

    /** A team holding nothing, with its rules. */
    public TeamState idleTeam(String team) {
        return rules(team).state(team, Map.of(), 0, 0);
    }

    public Set<String> regions() {
        var regions = new LinkedHashSet<String>();
        totals.keySet().forEach(k -> regions.add(k.region()));
        return regions;
    }

    public int acceleratorsPerInstance(String instanceType) {
        return catalog.get(instanceType).acceleratorCount();
    }

    /** The same fleet with the offering's total set; an offering it did not have is added. */
    public Fleet withTotal(OfferingKey offering, int instances) {
        var changed = new LinkedHashMap<>(totals);
        changed.put(offering, instances);
        return new Fleet(catalog, changed, plans.values(), teams, otherTeams);
    }

    /** The same fleet with one more plan and its offering. */
    public Fleet withPlan(PlanState plan, int instances) {
        if (plans.containsKey(plan.name())) {
            throw new IllegalArgumentException("plan " + plan.name() + " exists already");
        }
        var withPlan = new LinkedHashMap<>(plans);
        withPlan.put(plan.name(), plan);
        var changed = new LinkedHashMap<>(totals);
        changed.put(plan.offering(), instances);
        return new Fleet(catalog, changed, withPlan.values(), teams, otherTeams);
    }

    /** The same fleet without the plan and its offering: entries naming it no longer fit. */
    public Fleet withoutPlan(String name) {
        PlanState plan = plans.get(name);
        if (plan == null) {
            throw new IllegalArgumentException("no plan " + name);
        }
        var without = new LinkedHashMap<>(plans);
        without.remove(name);
        var changed = new LinkedHashMap<>(totals);
        changed.remove(plan.offering());
        return new Fleet(catalog, changed, without.values(), teams, otherTeams);
    }

    /** The same fleet, any team not known by name held to these rules (null: such a team cannot run). */
    public Fleet withOtherTeams(TeamRules rules) {
        return new Fleet(catalog, totals, plans.values(), teams, rules);
    }

    /**
     * The same fleet with every team's quota lifted to each type's whole fleet (on demand and plans): a free-for-all.
     */
    public Fleet uncapped() {
        var whole = new java.util.TreeMap<String, Integer>();
        totals.forEach((key, total) -> whole.merge(key.instanceType(), total, Integer::sum));
        var lifted = new LinkedHashMap<String, TeamRules>();
        teams.forEach((team, rules) -> lifted.put(team, rules.withLimits(whole)));
        return new Fleet(catalog, totals, plans.values(), lifted, otherTeams == null ? null : otherTeams.withLimits(whole));
    }

    /** The same fleet with the team's rules replaced (or a team added). */
    public Fleet withTeam(String team, TeamRules rules) {
        var changed = new LinkedHashMap<>(teams);
        changed.put(team, rules);
        return new Fleet(catalog, totals, plans.values(), changed, otherTeams);
    }
}
