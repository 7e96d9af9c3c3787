package io.spillover.replay;

import io.spillover.placement.OfferingKey;
import io.spillover.placement.PreferenceEntry;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * Plan use while it matters: the busy share of the plans' instances over the time in which some waiting job
 * lists the plan. A plan idle while nobody could use it costs no one a wait; idle while a job that lists it
 * waits, it does.
 */
final class PlanWatch {

    private final Fleet fleet;
    private final Map<OfferingKey, Integer> waiting = new HashMap<>();
    private long since = Long.MIN_VALUE;
    private double busy;
    private double available;

    PlanWatch(Fleet fleet) {
        this.fleet = fleet;
    }

    /** A job that lists plans starts or stops waiting: {@code change} is +1 or -1. */
    void waiting(Collection<PreferenceEntry> entries, int change) {
        for (PreferenceEntry entry : entries) {
            if (entry.offering().isPlan()) {
                waiting.merge(entry.offering(), change, Integer::sum);
            }
        }
    }

    /**
     * Counts the time since the last call at the use the ledger had then; call it at every event time before
     * anything changes, and once at the end.
     */
    void advance(long now, Map<OfferingKey, Integer> inUseSince) {
        if (since != Long.MIN_VALUE && now > since) {
            for (Map.Entry<OfferingKey, Integer> plan : waiting.entrySet()) {
                if (plan.getValue() > 0) {
                    busy += (double) inUseSince.getOrDefault(plan.getKey(), 0) * (now - since);
                    available += (double) fleet.total(plan.getKey()) * (now - since);
                }
            }
        }
        since = now;
    }

    /** Busy over available instance-seconds while a job listing the plan waited; 1 when none ever waited. */
    double utilizationWhileWaiting() {
        return available == 0 ? 1 : busy / available;
    }
}
