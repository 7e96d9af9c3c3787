package io.spillover.plans;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where training plans' status and counts come from: their registered window, or the provider when it knows
 * them (SageMaker). Implemented by the provider, so plans does not depend on it; {@link PlanSync} asks it.
 */
public interface PlanSource {

    /**
     * Whether training plans move with their registered window (SCHEDULED, ACTIVE, EXPIRED by the clock).
     * False when the provider knows their status and counts itself, through {@link #describePlans}.
     */
    default boolean plansFollowTheirWindow() {
        return true;
    }

    /** The provider's view of registered plans, by ARN; plans it does not know are left out. */
    default Map<String, ProviderPlan> describePlans(List<PlanRef> plans) {
        return Map.of();
    }

    /** How often plans are to be brought in step with the provider; empty when they follow their window. */
    default Optional<Duration> planSyncInterval() {
        return Optional.empty();
    }
}
