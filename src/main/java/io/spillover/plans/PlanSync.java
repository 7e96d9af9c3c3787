package io.spillover.plans;

import io.spillover.capacity.CapacityChanged;
import io.spillover.capacity.Offering;
import io.spillover.capacity.Offerings;
import io.spillover.capacity.ProviderFleet;
import io.spillover.placement.OfferingKey;
import io.spillover.shared.ProviderUnavailableException;
import io.spillover.system.Access;
import io.spillover.system.Change;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Brings registered plans in step with the provider, whose word wins: status, size, window, and how many
 * instances Spillover may take. Runs every {@link PlanSource#planSyncInterval()} ({@link PlanSyncTimer}) and on
 * an admin's demand.
 */
@Service
public class PlanSync {

    private final TrainingPlans plans;
    private final Offerings offerings;
    private final ProviderFleet provider;
    private final PlanSource source;
    private final TransactionTemplate transactions;
    private final ApplicationEventPublisher events;
    private final Clock clock;

    PlanSync(TrainingPlans plans, Offerings offerings, ProviderFleet provider, PlanSource source,
             TransactionTemplate transactions, ApplicationEventPublisher events, Clock clock) {
        this.plans = plans;
        this.offerings = offerings;
        this.provider = provider;
        this.source = source;
        this.transactions = transactions;
        this.events = events;
        this.clock = clock;
    }

    /** What one sync did. */
    public record Result(Instant at, String provider, List<Synced> plans, String message) {
    }

    /** One plan after a sync; {@code found} false when the provider does not know its ARN. */
    public record Synced(String name, String arn, boolean found, String status, int total, int available,
                         String message) {
    }

    /** Asks the provider about every registered plan with an ARN, then applies its answers in one transaction. */
    @Change(level = Access.Level.PLATFORM_ADMIN, action = "sync training plans", target = "training-plans")
    public Result sync() {
        Instant at = clock.instant();
        if (source.plansFollowTheirWindow()) {
            return new Result(at, provider.name(), List.of(), "plans follow their registered windows under the "
                    + provider.name() + " provider; there is nothing to sync");
        }
        List<TrainingPlans.StoredPlan> stored = plans.all().stream().filter(p -> p.arn() != null).toList();
        Map<String, ProviderPlan> seen;
        try {
            seen = source.describePlans(stored.stream().map(p -> new PlanRef(p.name(), p.arn(), p.region())).toList());
        } catch (RuntimeException e) {
            throw new ProviderUnavailableException("the " + provider.name() + " provider could not be asked about"
                    + " training plans; they stay as they were", e);
        }
        List<Synced> synced = transactions.execute(tx -> {
            var result = new ArrayList<Synced>();
            for (TrainingPlans.StoredPlan plan : stored) {
                ProviderPlan aws = seen.get(plan.arn());
                result.add(aws == null
                        ? new Synced(plan.name(), plan.arn(), false, plan.status().name(), plan.instanceCount(), 0,
                                "not found by the " + provider.name() + " provider; left as it was")
                        : apply(plan, aws, at));
            }
            return result;
        });
        return new Result(at, provider.name(), synced, synced.size() + " plan(s) synced");
    }

    /**
     * Spillover may take what the provider says is free plus what Spillover's own jobs hold, never more than
     * the plan's size: capacity used by jobs outside Spillover is not offered. A job of Spillover's that the
     * provider does not count yet is briefly counted twice; the worst outcome is a launch refused for
     * capacity, which falls through to the job's next entry.
     */
    private Synced apply(TrainingPlans.StoredPlan plan, ProviderPlan aws, Instant now) {
        OfferingKey key = plan.state().offering();
        int inUse = offerings.find(key).map(Offering::inUse).orElse(0);
        int total = Math.min(aws.total(), aws.available() + inUse);
        Instant start = aws.startTime() == null ? plan.startTime() : aws.startTime();
        Instant end = aws.endTime() == null || !aws.endTime().isAfter(start) ? plan.endTime() : aws.endTime();
        plans.sync(plan.name(), aws.status(), Math.max(1, aws.total()), start, end, now);
        int before = offerings.find(key).map(Offering::total).orElse(0);
        offerings.setTotal(key, total);
        if (aws.status() != plan.status()) {
            events.publishEvent(new PlanChanged(plan.name(), key, plan.status(), aws.status()));
        }
        if (!start.equals(plan.startTime()) || !end.equals(plan.endTime())) {
            events.publishEvent(new PlanChanged(plan.name(), key, null, aws.status()));
        }
        if (total > before) {
            events.publishEvent(new CapacityChanged(key, CapacityChanged.Cause.TOTAL_CHANGED));
        }
        return new Synced(plan.name(), plan.arn(), true, aws.status().name(), total, Math.max(0, total - inUse),
                aws.statusMessage());
    }
}
