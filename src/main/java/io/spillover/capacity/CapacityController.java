package io.spillover.capacity;

import java.time.Instant;
import java.util.List;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
class CapacityController {

    private final CapacityService capacity;

    CapacityController(CapacityService capacity) {
        this.capacity = capacity;
    }

    /** Every offering with its total, use, free instances and any unavailable mark. */
    @GetMapping("/api/v1/capacity")
    List<OfferingView> offerings() {
        return capacity.offerings().stream().map(OfferingView::of).toList();
    }

    record OfferingView(String provider, String region, String instanceType, String source, int total, int inUse,
                        int available, Instant unavailableUntil, String unavailableCause) {

        static OfferingView of(Offering o) {
            return new OfferingView(o.provider(), o.key().region(), o.key().instanceType(), o.key().source(),
                    o.total(), o.inUse(), o.available(), o.unavailableUntil(), o.unavailableCause());
        }
    }
}
