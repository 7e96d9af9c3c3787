package io.spillover.capacity;

import io.spillover.catalog.Catalog;
import io.spillover.placement.Capacity;
import io.spillover.placement.OfferingKey;
import io.spillover.placement.OfferingState;
import io.spillover.shared.InvalidRequestException;
import io.spillover.shared.Violation;
import io.spillover.system.Access;
import io.spillover.system.Change;
import io.spillover.tenancy.TeamUsage;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** Reads capacity for placement and changes on-demand totals, telling the scheduler when they grow. */
@Service
public class CapacityService implements SmartInitializingSingleton {

    private static final Logger log = LoggerFactory.getLogger(CapacityService.class);

    private final Offerings offerings;
    private final TeamUsage teams;
    private final ProviderFleet provider;
    private final Catalog catalog;
    private final ApplicationEventPublisher events;
    private final PlanDirectory plans;

    CapacityService(Offerings offerings, TeamUsage teams, ProviderFleet provider, Catalog catalog,
                    ApplicationEventPublisher events, PlanDirectory plans) {
        this.offerings = offerings;
        this.plans = plans;
        this.teams = teams;
        this.provider = provider;
        this.catalog = catalog;
        this.events = events;
    }

    /** A snapshot of everything placement reads: offerings, plans and teams. */
    @Transactional(readOnly = true)
    public Capacity snapshot() {
        List<OfferingState> states = offerings.all().stream().map(Offering::state).toList();
        return new Capacity(states, plans.plans(), teams.states().values());
    }

    public List<Offering> offerings() {
        return offerings.all();
    }

    /**
     * The offerings any of the teams may use: on-demand capacity of the types their quotas allow, and the
     * plans shared with them.
     */
    @Transactional(readOnly = true)
    public List<Offering> offeringsFor(java.util.Set<String> teamNames) {
        var states = teams.states();
        var allowed = new java.util.HashSet<String>();
        for (String team : teamNames) {
            var state = states.get(team);
            if (state != null) {
                state.instanceLimits().forEach((type, limit) -> {
                    if (limit > 0) {
                        allowed.add(type);
                    }
                });
            }
        }
        var sharedPlans = new java.util.HashSet<String>();
        plans.plans().stream().filter(p -> teamNames.stream().anyMatch(p::visibleTo))
                .forEach(p -> sharedPlans.add(p.name()));
        return offerings.all().stream()
                .filter(o -> o.key().isPlan() ? sharedPlans.contains(o.key().planName())
                        : allowed.contains(o.key().instanceType()))
                .toList();
    }

    public Offering offering(OfferingKey key) {
        return offerings.find(key).orElseThrow();
    }

    /** The provider's declared fleet wins at startup; changes made at run time last until the next start. */
    @Override
    public void afterSingletonsInstantiated() {
        for (FleetOffering declared : provider.fleet()) {
            offerings.setTotal(OfferingKey.onDemand(declared.region(), declared.instanceType()),
                    declared.onDemandCapacity());
        }
        log.info("Fleet of the {} provider: {} on-demand offerings", provider.name(), provider.fleet().size());
    }

    /** Lifts an unavailable mark before its time (an admin knows the capacity is back) and wakes the queue. */
    @Transactional
    public void liftMark(OfferingKey key) {
        if (offerings.liftMark(key)) {
            events.publishEvent(new CapacityChanged(key, CapacityChanged.Cause.UNAVAILABLE_EXPIRED));
        }
    }

    @Transactional
    @Change(level = Access.Level.PLATFORM_ADMIN, action = "set on-demand capacity",
            target = "fleet/{region}/{instanceType}")
    public Offering setOnDemandCapacity(String region, String instanceType, Integer capacity) {
        var violations = new ArrayList<Violation>();
        if (!provider.regions().contains(region)) {
            violations.add(new Violation("region", "region " + region + " is not served by the "
                    + provider.name() + " provider"));
        }
        if (!catalog.contains(instanceType)) {
            violations.add(new Violation("instanceType", "unknown instance type " + instanceType));
        }
        if (capacity == null || capacity < 0 || capacity > 100_000) {
            violations.add(new Violation("onDemandCapacity", "must be a whole number from 0 to 100000"));
        }
        if (!violations.isEmpty()) {
            throw new InvalidRequestException(violations);
        }
        OfferingKey key = OfferingKey.onDemand(region, instanceType);
        Offering offering = offerings.setTotal(key, capacity);
        events.publishEvent(new CapacityChanged(key, CapacityChanged.Cause.TOTAL_CHANGED));
        return offering;
    }
}
