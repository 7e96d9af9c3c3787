package io.spillover.jobs;

import io.spillover.capacity.CapacityReleased;
import io.spillover.capacity.Offerings;
import io.spillover.catalog.Catalog;
import io.spillover.placement.OfferingKey;
import io.spillover.placement.PreferenceEntry;
import io.spillover.tenancy.TeamUsage;
import java.time.Instant;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Component;

/**
 * What a job holds while it is on the provider: instances of its offering and of its team's quota, booked and
 * released together in the caller's transaction.
 */
@Component
class JobCapacity {

    private final Offerings offerings;
    private final TeamUsage teams;
    private final Catalog catalog;
    private final ApplicationEventPublisher events;

    JobCapacity(Offerings offerings, TeamUsage teams, Catalog catalog, ApplicationEventPublisher events) {
        this.offerings = offerings;
        this.teams = teams;
        this.catalog = catalog;
        this.events = events;
    }

    /**
     * Books the selected entry's instances. The database refuses overbooking with
     * {@link io.spillover.tenancy.CapacityRefusedException}, rolling the caller's transaction back.
     */
    Booking book(Job job, PreferenceEntry entry) {
        long offeringId = offerings.book(entry.offering(), entry.instanceCount());
        int borrowed = teams.book(job.team(), entry.instanceType(), entry.instanceCount(),
                accelerators(entry.instanceType(), entry.instanceCount()));
        return new Booking(offeringId, borrowed);
    }

    /** What a placement booked: instances of an offering, {@code borrowed} of them beyond the team's guarantee. */
    record Booking(long offeringId, int borrowed) {
    }

    /**
     * Gives back what the job's current attempt holds, if it still holds it, announcing the release when asked
     * to; answers the offering the attempt was on.
     */
    OfferingKey release(Job job, boolean announce) {
        var entry = job.preferences().get(job.selectedIndex());
        Long offeringId = job.offeringId();
        if (job.releaseCapacity()) {
            offerings.release(offeringId, entry.instanceCount());
            teams.release(job.team(), entry.instanceType(), entry.instanceCount(),
                    accelerators(entry.instanceType(), entry.instanceCount()));
            if (announce) {
                events.publishEvent(new CapacityReleased(entry.offering(), job.team()));
            }
        }
        return entry.offering();
    }

    /** Keeps the offering of the job's attempt out of placement until {@code until}. */
    void markUnavailable(Job job, Instant until, String cause) {
        offerings.markUnavailable(job.offeringId(), until, cause);
    }

    private int accelerators(String instanceType, int count) {
        return catalog.get(instanceType).acceleratorCount() * count;
    }
}
