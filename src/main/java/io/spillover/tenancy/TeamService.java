package io.spillover.tenancy;

import io.spillover.catalog.Catalog;
import io.spillover.placement.TeamState;
import io.spillover.shared.InvalidRequestException;
import io.spillover.shared.NotFoundException;
import io.spillover.shared.Violation;
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

    TeamService(Teams teams, TeamUsage usage, Catalog catalog, Validation validation,
                ApplicationEventPublisher events, Clock clock) {
        this.teams = teams;
        this.usage = usage;
        this.catalog = catalog;
        this.validation = validation;
        this.events = events;
        this.clock = clock;
    }

    /** Creates the team or changes its description; answers whether it was created. */
    @Transactional
    public boolean put(String name, TeamDefinition definition) {
        List<Violation> violations = new ArrayList<>(validation.check(definition));
        if (!NAME.matcher(name).matches()) {
            violations.add(0, new Violation("team", "must be 1 to 40 lowercase letters, digits or hyphens,"
                    + " starting and ending with a letter or digit"));
        }
        if (!violations.isEmpty()) {
            throw new InvalidRequestException(violations);
        }
        boolean created = !teams.existsById(name);
        Team team = teams.findById(name).orElseGet(() -> new Team(name, clock.instant()));
        team.describe(definition.displayName(), definition.weight() == null ? 1 : definition.weight(),
                definition.queueing() == null ? Queueing.BEST_EFFORT_FIFO : definition.queueing(), clock.instant());
        teams.save(team);
        events.publishEvent(new QuotaChanged(name));
        return created;
    }

    @Transactional
    public TeamView setQuotas(String name, QuotaDefinition definition) {
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
        return view(team, usage.state(name).orElseThrow());
    }

    @Transactional(readOnly = true)
    public TeamView get(String name) {
        Team team = teams.findById(name).orElseThrow(() -> notFound(name));
        return view(team, usage.state(name).orElseThrow());
    }

    @Transactional(readOnly = true)
    public List<TeamView> list() {
        Map<String, TeamState> states = usage.states();
        return teams.findAll().stream()
                .sorted(java.util.Comparator.comparing(Team::name))
                .map(team -> view(team, states.get(team.name())))
                .toList();
    }

    public boolean exists(String name) {
        return teams.existsById(name);
    }

    /** The team's quota and use for the placement core; 404 when there is no such team. */
    public TeamState state(String name) {
        return usage.state(name).orElseThrow(() -> notFound(name));
    }

    static NotFoundException notFound(String name) {
        return new NotFoundException("no team " + name);
    }

    private static TeamView view(Team team, TeamState state) {
        var limits = new TreeMap<>(state.instanceLimits());
        limits.values().removeIf(limit -> limit == 0);
        var used = new TreeMap<>(state.instancesInUse());
        used.values().removeIf(count -> count == 0);
        return new TeamView(team.name(), team.displayName(), team.weight(), team.queueing(),
                new TeamView.Quotas(limits, team.maxAccelerators(), team.maxConcurrentJobs()),
                new TeamView.Usage(used, state.acceleratorsInUse(), state.jobsInUse()));
    }
}
