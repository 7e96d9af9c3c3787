package io.spillover.capacity;

import io.spillover.placement.OfferingKey;
import io.spillover.shared.ProviderUnavailableException;
import io.spillover.system.Access;
import io.spillover.system.Change;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Brings the offerings nobody declared in step with the account's limits, as the provider reads them: every
 * {@link ProviderFleet#limitRefreshInterval()} ({@link CapacityRefreshTimer}) and on an admin's demand. A type
 * the reading of a region no longer lists keeps its offering with a total of 0; a declared offering is never
 * changed. A total that grew wakes the jobs waiting for it.
 */
@Service
public class CapacityRefresh {

    private final Offerings offerings;
    private final ProviderFleet provider;
    private final TransactionTemplate transactions;
    private final ApplicationEventPublisher events;
    private final Clock clock;

    CapacityRefresh(Offerings offerings, ProviderFleet provider, TransactionTemplate transactions,
                    ApplicationEventPublisher events, Clock clock) {
        this.offerings = offerings;
        this.provider = provider;
        this.transactions = transactions;
        this.events = events;
        this.clock = clock;
    }

    /**
     * What one refresh did.
     *
     * @param offerings        how many offerings now follow the account's quotas
     * @param outsideUncounted jobs outside Spillover not yet described, so not yet subtracted
     */
    public record Result(Instant at, String provider, List<String> regionsRead, Map<String, String> regionsFailed,
                         int offerings, int outsideUncounted, String message) {
    }

    /** Reads the account's limits and applies them in one transaction; 503 when no region could be read. */
    @Change(level = Access.Level.PLATFORM_ADMIN, action = "refresh capacity", target = "capacity")
    public Result refresh() {
        Instant at = clock.instant();
        if (provider.limitRefreshInterval().isEmpty()) {
            return new Result(at, provider.name(), List.of(), Map.of(), 0, 0, "every offering of the "
                    + provider.name() + " provider is declared; there are no limits to read");
        }
        LimitReading reading;
        try {
            reading = provider.readLimits();
        } catch (RuntimeException e) {
            provider.regions().forEach(region -> offerings.quotasNotRead(region, at, String.valueOf(e.getMessage())));
            throw new ProviderUnavailableException("the " + provider.name() + " provider could not read the"
                    + " account's service quotas; capacity stays as it was", e);
        }
        reading.regionsFailed().forEach((region, why) -> offerings.quotasNotRead(region, at, why));
        if (reading.regionsRead().isEmpty()) {
            throw new ProviderUnavailableException("no served region's service quotas could be read "
                    + reading.regionsFailed() + "; capacity stays as it was", null);
        }
        Set<OfferingKey> grown = new HashSet<>();
        int applied = transactions.execute(tx -> apply(reading, at, grown));
        grown.forEach(key -> events.publishEvent(new CapacityChanged(key, CapacityChanged.Cause.TOTAL_CHANGED)));
        return new Result(at, provider.name(), reading.regionsRead(), reading.regionsFailed(), applied,
                reading.outsideUncounted(), applied + " offering(s) follow the account's service quotas in "
                + String.join(", ", reading.regionsRead()));
    }

    private int apply(LimitReading reading, Instant at, Set<OfferingKey> grown) {
        Map<OfferingKey, Offering> before = new HashMap<>();
        offerings.all().forEach(o -> before.put(o.key(), o));
        var limits = new ArrayList<>(reading.limits().stream()
                .filter(l -> reading.regionsRead().contains(l.region())).toList());
        Set<OfferingKey> listed = new HashSet<>();
        limits.forEach(l -> listed.add(OfferingKey.onDemand(l.region(), l.instanceType())));
        for (Offering old : before.values()) {
            // A type the account no longer lists: nothing more may start on it.
            if (!old.key().isPlan() && old.limitSource() != Offering.LimitSource.DECLARED
                    && reading.regionsRead().contains(old.key().region()) && !listed.contains(old.key())) {
                limits.add(new AccountLimit(old.key().region(), old.key().instanceType(), null, null, 0));
            }
        }
        int applied = 0;
        for (AccountLimit limit : limits) {
            OfferingKey key = OfferingKey.onDemand(limit.region(), limit.instanceType());
            if (offerings.applyLimit(limit, Offering.LimitSource.QUOTA)) {
                applied++;
                Offering old = before.get(key);
                if (limit.total() > (old == null ? 0 : old.total())) {
                    grown.add(key);
                }
            }
        }
        reading.regionsRead().forEach(region -> offerings.quotasRead(region, at));
        return applied;
    }
}
