package io.spillover.plans;

import io.spillover.placement.OfferingKey;
import io.spillover.placement.PlanStatus;

/**
 * A plan was registered or changed ({@code from} null), or its status moved (SCHEDULED → ACTIVE →
 * EXPIRED). Published after commit.
 */
public record PlanChanged(String plan, OfferingKey offering, PlanStatus from, PlanStatus to) {

    public boolean edited() {
        return from == null;
    }

    public boolean activated() {
        return from != null && to == PlanStatus.ACTIVE;
    }

    public boolean expired() {
        return from != null && to == PlanStatus.EXPIRED;
    }
}
