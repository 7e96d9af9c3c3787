package io.spillover.placement;

/** A training plan's life; only {@link #ACTIVE} plans offer capacity. */
public enum PlanStatus {
    PENDING, SCHEDULED, ACTIVE, EXPIRED, FAILED
}
