package io.spillover.providers.local;

import io.spillover.system.Access;
import io.spillover.capacity.CapacityService;
import io.spillover.capacity.Offering;
import io.spillover.placement.OfferingKey;
import java.time.Instant;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/** Platform admins change the local fleet at run time, to rehearse scarcity. */
@RestController
@ConditionalOnProperty(name = "spillover.provider", havingValue = "local", matchIfMissing = true)
class LocalFleetController {

    private final CapacityService capacity;
    private final LocalProvider provider;

    LocalFleetController(CapacityService capacity, LocalProvider provider) {
        this.capacity = capacity;
        this.provider = provider;
    }

    /**
     * Sets the on-demand capacity of a type in a region. With {@code refuseLaunches: true} the provider answers
     * launches there with an insufficient-capacity error, as a cloud does when it runs out; setting it back to
     * false also lifts the offering's unavailable mark.
     */
    @PutMapping("/api/v1/admin/fleet/{region}/{instanceType}")
    @Access(Access.Level.PLATFORM_ADMIN)
    FleetView put(@PathVariable String region, @PathVariable String instanceType, @RequestBody FleetChange change) {
        Offering offering = capacity.setOnDemandCapacity(region, instanceType, change.onDemandCapacity());
        if (change.refuseLaunches() != null) {
            provider.refuseLaunches(offering.key(), change.refuseLaunches());
            if (!change.refuseLaunches()) {
                capacity.liftMark(offering.key());
            }
        }
        return FleetView.of(capacity.offering(offering.key()), provider.refusesLaunches(offering.key()));
    }

    record FleetChange(Integer onDemandCapacity, Boolean refuseLaunches) {
    }

    record FleetView(String region, String instanceType, int onDemandCapacity, int inUse, int available,
                     boolean refuseLaunches, Instant unavailableUntil) {

        static FleetView of(Offering offering, boolean refusing) {
            OfferingKey key = offering.key();
            return new FleetView(key.region(), key.instanceType(), offering.total(), offering.inUse(),
                    offering.available(), refusing, offering.unavailableUntil());
        }
    }
}
