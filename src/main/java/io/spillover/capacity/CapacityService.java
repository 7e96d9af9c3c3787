package io.spillover.capacity;

import io.spillover.catalog.Catalog;
import io.spillover.catalog.JobKind;
import io.spillover.placement.Capacity;
import io.spillover.placement.OfferingKey;
import io.spillover.placement.OfferingState;
import io.spillover.placement.RunningPlacement;
import io.spillover.placement.PreferenceEntry;
import io.spillover.shared.InvalidRequestException;
import io.spillover.shared.Violation;
import io.spillover.system.Access;
import io.spillover.system.Change;
import io.spillover.system.Snapshots;
import io.spillover.tenancy.TeamUsage;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.event.EventListener;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionTemplate;

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
    private final JdbcClient jdbc;
    private final TransactionTemplate readOnly;

    CapacityService(Offerings offerings, TeamUsage teams, ProviderFleet provider, Catalog catalog,
                    ApplicationEventPublisher events, PlanDirectory plans, JdbcClient jdbc,
                    PlatformTransactionManager transactions) {
        this.jdbc = jdbc;
        this.readOnly = new TransactionTemplate(transactions);
        readOnly.setReadOnly(true);
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

    /**
     * A snapshot with the placements holding instances, read by {@code running} in the same transaction, at one
     * moment: every instance a team holds is in one of its placements, as a reclaim counts them.
     */
    @Transactional(readOnly = true)
    public Capacity snapshot(Supplier<? extends Collection<RunningPlacement>> running) {
        Snapshots.repeatableRead(jdbc);
        List<OfferingState> states = offerings.all().stream().map(Offering::state).toList();
        return new Capacity(states, plans.plans(), teams.states().values(), running.get());
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

    /**
     * The limits submissions are held to, under a provider that reads its account's limits; empty under one
     * whose offerings are all declared (the local provider, where an admin may add capacity at any time). Every
     * submission asks: under the local provider the answer takes no transaction.
     */
    public Optional<OfferingLimits> limits() {
        if (provider.limitRefreshInterval().isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(readOnly.execute(
                status -> new OfferingLimits(offerings.all(), offerings.quotaReadings().keySet())));
    }

    /**
     * Makes an offering, whose limit is unknown, for each on-demand entry in a region whose service quotas were never
     * read and that has no offering of its type: under a provider that reads its account's limits, such an entry is
     * tried, as SageMaker's own lists try every type, instead of waiting for a reading that may never come (an
     * identity without {@code servicequotas:*}, no endpoint reachable). Joins the submission's transaction.
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public void tryWhereQuotasUnknown(List<PreferenceEntry> entries) {
        if (provider.limitRefreshInterval().isEmpty()) {
            return;
        }
        var read = offerings.quotaReadings().keySet();
        for (PreferenceEntry entry : entries) {
            if (!entry.offering().isPlan() && !read.contains(entry.region())
                    && offerings.tryUnknown(entry.region(), entry.instanceType())) {
                log.info("The account's service quotas in {} are unknown: {} is tried", entry.region(),
                        entry.instanceType());
            }
        }
    }

    /**
     * The provider's declared fleet wins at startup; changes made at run time last until the next start. Under a
     * provider that reads its account's limits, an offering declared before and not now follows them again.
     */
    @Override
    public void afterSingletonsInstantiated() {
        var declaredKeys = new HashSet<OfferingKey>();
        for (FleetOffering declared : provider.fleet()) {
            OfferingKey key = OfferingKey.onDemand(declared.region(), declared.instanceType());
            offerings.declare(key, declared.onDemandCapacity());
            declaredKeys.add(key);
        }
        if (provider.limitRefreshInterval().isPresent()) {
            offerings.all().stream().filter(o -> !o.key().isPlan() && !declaredKeys.contains(o.key()))
                    .forEach(o -> offerings.undeclare(o.key()));
        }
        log.info("Fleet of the {} provider: {} declared on-demand offerings{}", provider.name(),
                provider.fleet().size(), provider.limitRefreshInterval().isPresent()
                        ? "; the others follow the account's service quotas" : "");
    }

    /** The account's limit as a refused launch stated it; a declared offering keeps its total. */
    @EventListener
    @Transactional
    public void on(AccountLimitLearned learned) {
        OfferingKey key = OfferingKey.onDemand(learned.region(), learned.instanceType());
        Optional<Offering> known = offerings.find(key);
        Integer training = known.map(Offering::trainingQuota).orElse(null);
        Integer processing = known.map(Offering::processingQuota).orElse(null);
        int outside = known.map(Offering::outsideUse).orElse(0);
        var limit = learned.kind() == JobKind.TRAINING
                ? new AccountLimit(learned.region(), learned.instanceType(), learned.limit(), processing, outside)
                : new AccountLimit(learned.region(), learned.instanceType(), training, learned.limit(), outside);
        if (offerings.applyLimit(limit, Offering.LimitSource.LEARNED)) {
            log.info("Learned the account's limit of {} for {} jobs in {}: {} instances", learned.instanceType(),
                    learned.kind().name().toLowerCase(Locale.ROOT), learned.region(), learned.limit());
        }
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
        Offering offering = offerings.declare(key, capacity);
        events.publishEvent(new CapacityChanged(key, CapacityChanged.Cause.TOTAL_CHANGED));
        return offering;
    }
}
