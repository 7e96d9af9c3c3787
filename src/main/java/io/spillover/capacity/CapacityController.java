package io.spillover.capacity;

import io.spillover.security.Caller;
import io.spillover.security.Callers;
import io.spillover.system.Access;
import java.time.Instant;
import java.util.List;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
class CapacityController {

    private final CapacityService capacity;
    private final Callers callers;

    CapacityController(CapacityService capacity, Callers callers) {
        this.capacity = capacity;
        this.callers = callers;
    }

    /**
     * Offerings with their total, use, free instances and any unavailable mark: all of them for platform
     * admins, for anyone else those their teams may use.
     */
    @GetMapping("/api/v1/capacity")
    @Access(Access.Level.AUTHENTICATED)
    List<OfferingView> offerings() {
        Caller caller = callers.current().orElseThrow();
        List<Offering> offerings = caller.platformAdmin() ? capacity.offerings()
                : capacity.offeringsFor(caller.memberships().keySet());
        return offerings.stream().map(OfferingView::of).toList();
    }

    record OfferingView(String provider, String region, String instanceType, String source, int total, int inUse,
                        int available, Instant unavailableUntil, String unavailableCause) {

        static OfferingView of(Offering o) {
            return new OfferingView(o.provider(), o.key().region(), o.key().instanceType(), o.key().source(),
                    o.total(), o.inUse(), o.available(), o.unavailableUntil(), o.unavailableCause());
        }
    }
}
