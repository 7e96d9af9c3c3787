package io.spillover.replay;

import io.spillover.placement.Capacity;
import io.spillover.placement.OfferingState;
import io.spillover.placement.PlacementRequest;
import io.spillover.placement.PreferenceEntry;
import io.spillover.placement.TeamState;
import java.util.Optional;

/**
 * A cheap necessary condition for a job to fit, so the replay need not hand the placement core jobs it is
 * certain to refuse: an entry fits only if its source has the instances free and the team's quota for the
 * type covers them (SPEC §3.3.1). A job that fails this gets NOTHING_FITS from the core and books nothing,
 * and in best-effort FIFO holds nothing back, so skipping it changes no decision (QueueReplayTest checks
 * this against the whole queue). The core still makes every decision.
 */
final class FreeCapacity {

    private FreeCapacity() {
    }

    static boolean anyEntryCouldFit(PlacementRequest request, Capacity capacity) {
        return capacity.anyEntryCouldFit(request);
    }

    /** Free instances over every offering: when none is left, no job behind can fit. */
    static int total(Capacity capacity) {
        return capacity.offerings().stream().mapToInt(OfferingState::available).sum();
    }
}
