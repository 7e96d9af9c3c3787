package io.spillover.plans;

import io.spillover.capacity.Offering;
import io.spillover.capacity.Offerings;
import io.spillover.capacity.PlanDirectory;
import io.spillover.capacity.ProviderFleet;
import io.spillover.catalog.Catalog;
import io.spillover.placement.OfferingKey;
import io.spillover.placement.PlanState;
import io.spillover.placement.PlanStatus;
import io.spillover.shared.ConflictException;
import io.spillover.shared.InvalidRequestException;
import io.spillover.shared.NotFoundException;
import io.spillover.shared.Violation;
import io.spillover.system.Access;
import io.spillover.system.Change;
import io.spillover.system.Validation;
import io.spillover.tenancy.TeamService;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Registers and changes training plans, keeps their offerings' totals, and moves their status with their
 * window: SCHEDULED before {@code startTime}, ACTIVE in it, EXPIRED after {@code endTime} — unless the provider
 * reports plans itself ({@link PlanSync}).
 */
@Service
public class PlanService implements PlanDirectory {

    static final Pattern NAME = Pattern.compile("^[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?$");

    private final TrainingPlans plans;
    private final Offerings offerings;
    private final TeamService teams;
    private final Catalog catalog;
    private final ProviderFleet provider;
    private final PlanSource source;
    private final Validation validation;
    private final ApplicationEventPublisher events;
    private final Clock clock;

    PlanService(TrainingPlans plans, Offerings offerings, TeamService teams, Catalog catalog,
                ProviderFleet provider, PlanSource source, Validation validation, ApplicationEventPublisher events,
                Clock clock) {
        this.plans = plans;
        this.offerings = offerings;
        this.teams = teams;
        this.catalog = catalog;
        this.provider = provider;
        this.source = source;
        this.validation = validation;
        this.events = events;
        this.clock = clock;
    }

    /** Registers a new plan; one of that name already is a conflict. */
    @Transactional
    @Change(level = Access.Level.PLATFORM_ADMIN, action = "register training plan",
            target = "training-plans/{definition.name}")
    public TrainingPlanView create(TrainingPlanDefinition definition) {
        String name = definition == null ? null : definition.name();
        if (name == null || !NAME.matcher(name).matches()) {
            throw new InvalidRequestException("name", "must be 1 to 64 lowercase letters, digits or hyphens,"
                    + " starting and ending with a letter or digit");
        }
        if (plans.exists(name)) {
            throw new ConflictException("a training plan named " + name + " exists; change it with PUT");
        }
        save(name, definition);
        return view(plans.find(name).orElseThrow());
    }

    /** Registers or changes a plan; answers whether it was new. */
    @Transactional
    @Change(level = Access.Level.PLATFORM_ADMIN, action = "save training plan", target = "training-plans/{name}")
    public boolean put(String name, TrainingPlanDefinition definition) {
        if (!NAME.matcher(name).matches()) {
            throw new InvalidRequestException("plan", "must be 1 to 64 lowercase letters, digits or hyphens");
        }
        if (definition != null && definition.name() != null && !definition.name().equals(name)) {
            throw new InvalidRequestException("name", "must match the plan in the path, " + name);
        }
        boolean created = !plans.exists(name);
        save(name, definition);
        return created;
    }

    private void save(String name, TrainingPlanDefinition definition) {
        List<Violation> violations = new ArrayList<>(validation.check(definition));
        if (definition == null) {
            throw new InvalidRequestException(violations);
        }
        String region = definition.region() == null ? provider.defaultRegion() : definition.region();
        if (definition.instanceType() != null && !definition.instanceType().isBlank()) {
            catalog.find(definition.instanceType()).ifPresentOrElse(type -> {
                if (!type.training()) {
                    violations.add(new Violation("instanceType", type.name() + " is not available for training jobs,"
                            + " the only jobs plans serve"));
                }
            }, () -> violations.add(new Violation("instanceType", "unknown instance type " + definition.instanceType())));
        }
        if (!provider.regions().contains(region)) {
            violations.add(new Violation("region", "region " + region + " is not served by the " + provider.name()
                    + " provider"));
        }
        if (!source.plansFollowTheirWindow() && (definition.arn() == null || definition.arn().isBlank())) {
            violations.add(new Violation("arn", "the " + provider.name() + " provider needs the plan's ARN"
                    + " to launch on it and to follow its status"));
        }
        if (definition.startTime() != null && definition.endTime() != null
                && !definition.endTime().isAfter(definition.startTime())) {
            violations.add(new Violation("endTime", "must be after startTime"));
        }
        if (definition.teams() != null) {
            for (int i = 0; i < definition.teams().size(); i++) {
                String team = definition.teams().get(i);
                if (team != null && !teams.exists(team)) {
                    violations.add(new Violation("teams[" + i + "]", "no team " + team));
                }
            }
        }
        if (!violations.isEmpty()) {
            throw new InvalidRequestException(violations);
        }
        Optional<TrainingPlans.StoredPlan> before = plans.find(name);
        OfferingKey key = OfferingKey.plan(region, definition.instanceType(), name);
        before.map(p -> p.state().offering()).filter(old -> !old.equals(key)).ifPresent(old -> {
            if (offerings.find(old).map(Offering::inUse).orElse(0) > 0) {
                throw new ConflictException("plan " + name + " has jobs running on " + old.instanceType() + " in "
                        + old.region() + "; its type and region cannot change now");
            }
            offerings.setTotal(old, 0);
        });
        Instant now = clock.instant();
        // Under a provider that knows its plans, a new plan waits PENDING for the next sync, which brings AWS's view.
        PlanStatus status = source.plansFollowTheirWindow()
                ? before.map(TrainingPlans.StoredPlan::status)
                        .filter(s -> s == PlanStatus.PENDING || s == PlanStatus.FAILED)
                        .orElse(statusAt(definition.startTime(), definition.endTime(), now))
                : before.map(TrainingPlans.StoredPlan::status).orElse(PlanStatus.PENDING);
        plans.save(new TrainingPlans.StoredPlan(name, definition.arn(), definition.instanceType(),
                definition.instanceCount(), region, definition.startTime(), definition.endTime(), status,
                definition.teams().stream().distinct().sorted().toList()), now);
        offerings.setTotal(key, definition.instanceCount());
        events.publishEvent(new PlanChanged(name, key, null, status));
    }

    /** Where a plan's window puts it at {@code now}. */
    static PlanStatus statusAt(Instant start, Instant end, Instant now) {
        if (now.isBefore(start)) {
            return PlanStatus.SCHEDULED;
        }
        return now.isBefore(end) ? PlanStatus.ACTIVE : PlanStatus.EXPIRED;
    }

    /**
     * Moves every plan whose window boundary has passed, publishing each move. Nothing moves when the provider
     * reports plans' status itself: its word wins over the registered window.
     */
    @Transactional
    public List<PlanChanged> advance(Instant now) {
        var moved = new ArrayList<PlanChanged>();
        if (!source.plansFollowTheirWindow()) {
            return moved;
        }
        for (TrainingPlans.StoredPlan plan : plans.all()) {
            if (plan.status() != PlanStatus.SCHEDULED && plan.status() != PlanStatus.ACTIVE) {
                continue;
            }
            PlanStatus due = statusAt(plan.startTime(), plan.endTime(), now);
            if (due != plan.status() && plans.move(plan.name(), plan.status(), due, now)) {
                var change = new PlanChanged(plan.name(), plan.state().offering(), plan.status(), due);
                events.publishEvent(change);
                moved.add(change);
            }
        }
        return moved;
    }

    /** The next start or end of a plan's window after {@code now}, for the scheduler's timer. */
    public Optional<Instant> nextBoundary(Instant now) {
        if (!source.plansFollowTheirWindow()) {
            return Optional.empty();
        }
        return plans.all().stream()
                .flatMap(p -> switch (p.status()) {
                    case SCHEDULED -> Stream.of(p.startTime(), p.endTime());
                    case ACTIVE -> Stream.of(p.endTime());
                    default -> Stream.<Instant>empty();
                })
                .filter(t -> t.isAfter(now))
                .min(Instant::compareTo);
    }

    @Override
    public Optional<String> arn(String plan) {
        return plans.find(plan).map(TrainingPlans.StoredPlan::arn);
    }

    @Override
    public List<PlanState> plans() {
        return plans.all().stream().map(TrainingPlans.StoredPlan::state).toList();
    }

    /** The plans a team may use, by name. */
    public Map<String, PlanState> statesVisibleTo(String team) {
        var visible = new HashMap<String, PlanState>();
        plans().stream().filter(p -> p.visibleTo(team)).forEach(p -> visible.put(p.name(), p));
        return visible;
    }

    public List<TrainingPlanView> list() {
        return plans.all().stream().map(this::view).toList();
    }

    /** The plans shared with a team; the other teams they are shared with are not shown. */
    public List<TrainingPlanView> visibleTo(String team) {
        teams.state(team);
        return plans.all().stream().filter(p -> p.teams().contains(team)).map(this::view)
                .map(v -> new TrainingPlanView(v.name(), v.arn(), v.instanceType(), v.instanceCount(), v.region(),
                        v.startTime(), v.endTime(), v.status(), List.of(team), v.inUse(), v.available()))
                .toList();
    }

    public TrainingPlanView get(String name) {
        return plans.find(name).map(this::view).orElseThrow(() -> new NotFoundException("no training plan " + name));
    }

    private TrainingPlanView view(TrainingPlans.StoredPlan plan) {
        Optional<Offering> offering = offerings.find(plan.state().offering());
        int inUse = offering.map(Offering::inUse).orElse(0);
        int available = plan.status() == PlanStatus.ACTIVE ? offering.map(Offering::available).orElse(0) : 0;
        return new TrainingPlanView(plan.name(), plan.arn(), plan.instanceType(), plan.instanceCount(), plan.region(),
                plan.startTime(), plan.endTime(), plan.status(), plan.teams(), inUse, available);
    }
}
