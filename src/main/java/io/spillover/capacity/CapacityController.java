package io.spillover.capacity;

import io.spillover.security.Caller;
import io.spillover.security.Callers;
import io.spillover.system.Access;
import java.time.Instant;
import java.util.List;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
class CapacityController {

    private final CapacityService capacity;
    private final CapacityRefresh refresh;
    private final Callers callers;

    CapacityController(CapacityService capacity, CapacityRefresh refresh, Callers callers) {
        this.capacity = capacity;
        this.refresh = refresh;
        this.callers = callers;
    }

    /**
     * Offerings with their total, use, free instances, any unavailable mark and where the total came from: all
     * of them for platform admins, for anyone else those their teams may use.
     */
    @GetMapping("/api/v1/capacity")
    @Access(Access.Level.AUTHENTICATED)
    List<OfferingView> offerings() {
        Caller caller = callers.current().orElseThrow();
        List<Offering> offerings = caller.platformAdmin() ? capacity.offerings()
                : capacity.offeringsFor(caller.memberships().keySet());
        return offerings.stream().map(OfferingView::of).toList();
    }

    /**
     * Reads the account's limits now, instead of at the next scheduled refresh; 503 when no served region could
     * be read. Under a provider whose offerings are all declared it does nothing.
     */
    @PostMapping("/api/v1/admin/capacity/refresh")
    @Access(Access.Level.PLATFORM_ADMIN)
    CapacityRefresh.Result refresh() {
        return refresh.refresh();
    }

    /**
     * @param limitSource where {@code total} came from: {@code declared}, {@code quota}, {@code learned}, {@code
     *                    unknown} (the region's quotas could not be read: the type is tried), or {@code plan} for a
     *                    training plan's offering
     * @param quotaUnknownBecause for an {@code unknown} limit, why the region's quotas could not be read
     */
    record OfferingView(String provider, String region, String instanceType, String source, int total, int inUse,
                        int available, Instant unavailableUntil, String unavailableCause, String limitSource,
                        Integer trainingQuota, Integer processingQuota, Integer outsideUse,
                        String quotaUnknownBecause) {

        static OfferingView of(Offering o) {
            return new OfferingView(o.provider(), o.key().region(), o.key().instanceType(), o.key().source(),
                    o.total(), o.inUse(), o.available(), o.unavailableUntil(), o.unavailableCause(),
                    limitSource(o), o.trainingQuota(), o.processingQuota(), o.outsideUse(),
                    o.limitSource() == Offering.LimitSource.UNKNOWN ? unknownBecause(o) : null);
        }

        private static String unknownBecause(Offering o) {
            return o.quotaUnknownBecause() == null ? "the region's service quotas were not read yet"
                    : o.quotaUnknownBecause();
        }

        static String limitSource(Offering o) {
            return o.key().isPlan() ? "plan" : o.limitSource().value();
        }
    }
}
