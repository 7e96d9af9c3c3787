package io.spillover.tenancy;

import io.spillover.catalog.Catalog;
import io.spillover.placement.BorrowLimit;
import io.spillover.placement.SharingStrategy;
import io.spillover.placement.TeamShare;
import io.spillover.placement.TeamState;
import io.spillover.queue.FairShares;
import io.spillover.shared.InvalidRequestException;
import io.spillover.shared.NotFoundException;
import io.spillover.shared.Violation;
import io.spillover.system.Access;
import io.spillover.system.Change;
import io.spillover.system.Validation;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** Creates and changes teams and their quotas; the one way other modules learn a team's state. */
@Service
public class TeamService {

    static final Pattern NAME = Pattern.compile("^[a-z0-9]([a-z0-9-]{0,38}[a-z0-9])?$");

    private final Teams teams;
    private final TeamUsage usage;
    private final Catalog catalog;
    private final Validation validation;
    private final ApplicationEventPublisher events;
    private final Clock clock;
    private final FairShares fairShares;
    private final SharingProperties platformSharing;

    TeamService(Teams teams, TeamUsage usage, Catalog catalog, Validation validation,
                ApplicationEventPublisher events, Clock clock, FairShares fairShares, SharingProperties platformSharing) {
        this.fairShares = fairShares;
        this.platformSharing = platformSharing;
        this.teams = teams;
        this.usage = usage;
        this.catalog = catalog;
        this.validation = validation;
        this.events = events;
        this.clock = clock;
    }

    /** Creates the team or changes its description; answers whether it was created. */
    @Transactional
    @Change(level = Access.Level.PLATFORM_ADMIN, action = "save team", target = "teams/{team}")
    public boolean put(String team, TeamDefinition definition) {
        return describe(team, definition);
    }

    /** Creates or changes the team and sets its quotas, all or nothing, as the console's team form does. */
    @Transactional
    @Change(level = Access.Level.PLATFORM_ADMIN, action = "save team and quotas", target = "teams/{team}")
    public TeamView put(String team, TeamDefinition definition, QuotaDefinition quotas) {
        describe(team, definition);
        return limit(team, quotas);
    }

    @Transactional
    @Change(level = Access.Level.PLATFORM_ADMIN, action = "set quotas", target = "teams/{team}/quotas")
    public TeamView setQuotas(String team, QuotaDefinition definition) {
        return limit(team, definition);
    }

    private boolean describe(String name, TeamDefinition definition) {
        List<Violation> violations = new ArrayList<>(validation.check(definition));
        if (!NAME.matcher(name).matches()) {
            violations.add(0, new Violation("team", "must be 1 to 40 lowercase letters, digits or hyphens,"
                    + " starting and ending with a letter or digit"));
        }
        SharingDefinition sharing = definition == null || definition.sharing() == null ? SharingDefinition.DEFAULT
                : definition.sharing();
        checkSharing(sharing, violations);
        if (!violations.isEmpty()) {
            throw new InvalidRequestException(violations);
        }
        boolean created = !teams.existsById(name);
        Team team = teams.findById(name).orElseGet(() -> new Team(name, clock.instant()));
        team.describe(definition.displayName(), definition.weight() == null ? 1 : definition.weight(),
                definition.queueing() == null ? Queueing.BEST_EFFORT_FIFO : definition.queueing(), clock.instant());
        team.share(sharing.strategyOrDefault(), sharing.borrowLimitPercent(), sharing.borrowLimits() != null,
                clock.instant());
        teams.saveAndFlush(team); // before its quotas, which the database checks against it
        usage.replaceBorrowLimits(name, sharing.borrowLimits() == null ? Map.of() : sharing.borrowLimits());
        events.publishEvent(new QuotaChanged(name));
        return created;
    }

    /** A borrow limit is in percent or per type, for known types, and only a team that borrows has one. */
    private void checkSharing(SharingDefinition sharing, List<Violation> violations) {
        if (sharing.borrowLimits() != null) {
            sharing.borrowLimits().keySet().stream()
                    .filter(type -> !catalog.contains(type))
                    .sorted()
                    .forEach(type -> violations.add(new Violation("sharing.borrowLimits." + type,
                            "unknown instance type " + type)));
        }
        if (sharing.borrowLimitPercent() != null && sharing.borrowLimits() != null) {
            violations.add(new Violation("sharing.borrowLimits", "give a borrow limit in percent"
                    + " (borrowLimitPercent) or per type (borrowLimits), not both"));
        }
        boolean limited = sharing.borrowLimitPercent() != null || sharing.borrowLimits() != null;
        if (limited && sharing.strategyOrDefault() != SharingStrategy.LEND_AND_BORROW) {
            violations.add(new Violation("sharing.strategy", "borrow limits are for a team that borrows"
                    + " (LEND_AND_BORROW); a " + sharing.strategyOrDefault() + " team borrows nothing"));
        }
    }

    private TeamView limit(String name, QuotaDefinition definition) {
        Team team = teams.findById(name).orElseThrow(() -> notFound(name));
        List<Violation> violations = new ArrayList<>(validation.check(definition));
        if (definition.instanceLimits() != null) {
            definition.instanceLimits().keySet().stream()
                    .filter(type -> !catalog.contains(type))
                    .sorted()
                    .forEach(type -> violations.add(new Violation("instanceLimits." + type, "unknown instance type " + type)));
        }
        if (!violations.isEmpty()) {
            throw new InvalidRequestException(violations);
        }
        team.cap(definition.maxAccelerators(), definition.maxConcurrentJobs(), clock.instant());
        teams.save(team);
        usage.replaceLimits(name, definition.instanceLimits());
        events.publishEvent(new QuotaChanged(name));
        return view(team, usage.states(), fairShares.read());
    }

    @Transactional(readOnly = true)
    public TeamView get(String name) {
        Team team = teams.findById(name).orElseThrow(() -> notFound(name));
        return view(team, usage.states(), fairShares.read());
    }

    @Transactional(readOnly = true)
    public List<TeamView> list() {
        Map<String, TeamState> states = usage.states();
        Map<String, Map<String, Integer>> lent = Lending.lent(states);
        FairShares.Snapshot shares = fairShares.read();
        return teams.findAll().stream()
                .sorted(java.util.Comparator.comparing(Team::name))
                .map(team -> view(team, states.get(team.name()), lent, shares))
                .toList();
    }

    /** Per team and instance type, what teams hold beyond their guarantees, and whose idle guarantee it stands on. */
    @Transactional(readOnly = true)
    public Loans loans() {
        Map<String, TeamState> states = usage.states();
        var borrowed = new TreeMap<String, Map<String, Integer>>();
        states.forEach((name, state) -> {
            Map<String, Integer> beyond = Lending.borrowed(state);
            if (!beyond.isEmpty()) {
                borrowed.put(name, beyond);
            }
        });
        return new Loans(borrowed, new TreeMap<>(Lending.lent(states)));
    }

    /**
     * @param borrowed per team, per type, the instances it holds beyond its guarantee (teams borrowing nothing left out)
     * @param lent     per team, per type, the part of its idle guarantee that borrowed instances stand on
     */
    public record Loans(Map<String, Map<String, Integer>> borrowed, Map<String, Map<String, Integer>> lent) {
    }

    public boolean exists(String name) {
        return teams.existsById(name);
    }

    /**
     * The team's quota, use and sharing for the placement core; 404 when there is no such team. With sharing off on
     * the platform a team borrows nothing, so its quota is a hard limit at submission too.
     */
    public TeamState state(String name) {
        TeamState state = usage.state(name).orElseThrow(() -> notFound(name));
        return platformSharing.enabled() || !state.sharing().borrows() ? state
                : state.withSharing(SharingStrategy.LEND, state.borrowLimit());
    }

    static NotFoundException notFound(String name) {
        return new NotFoundException("no team " + name);
    }

    /** @param states every team's: what a team lends depends on what the others borrow */
    private TeamView view(Team team, Map<String, TeamState> states, FairShares.Snapshot shares) {
        return view(team, states.get(team.name()), Lending.lent(states), shares);
    }

    private TeamView view(Team team, TeamState state, Map<String, Map<String, Integer>> lent,
                          FairShares.Snapshot shares) {
        var limits = new TreeMap<>(state.instanceLimits());
        limits.values().removeIf(limit -> limit == 0);
        var used = new TreeMap<>(state.instancesInUse());
        used.values().removeIf(count -> count == 0);
        BorrowLimit limit = state.borrowLimit();
        return new TeamView(team.name(), team.displayName(), team.weight(), team.queueing(),
                new TeamView.Quotas(limits, team.maxAccelerators(), team.maxConcurrentJobs()),
                new TeamView.Usage(used, state.acceleratorsInUse(), state.jobsInUse(), Lending.borrowed(state),
                        lent.getOrDefault(team.name(), Map.of())),
                share(team.name(), shares),
                new TeamView.Sharing(platformSharing.enabled(), state.sharing(), limit.percent(),
                        limit.instances() == null ? null : new TreeMap<>(limit.instances())));
    }

    private static TeamView.Share share(String team, FairShares.Snapshot shares) {
        TeamShare share = shares.shares().getOrDefault(team, TeamShare.NEW_TEAM);
        return new TeamView.Share(shares.policy().fairShare(), shares.targetShare(team), shares.usageShare(team),
                share.usage() / 3600, shares.policy().shareHalfLife().toSeconds(),
                shares.typical().containsKey(team) ? shares.typical().get(team).toSeconds() : null);
    }
}
