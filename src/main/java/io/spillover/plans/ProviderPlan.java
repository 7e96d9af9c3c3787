package io.spillover.plans;

import io.spillover.placement.PlanStatus;
import java.time.Instant;

/**
 * A training plan as the provider reports it; its status and counts win over what was registered.
 *
 * @param available instances of the plan free now, for jobs of anyone using the plan
 */
public record ProviderPlan(String arn, PlanStatus status, String statusMessage, int total, int available,
                           int inUse, Instant startTime, Instant endTime) {
}
