package io.spillover.plans;

import io.spillover.placement.PlanStatus;
import java.time.Instant;
import java.util.List;

/** A plan with its capacity now: total, in use and free. */
public record TrainingPlanView(String name, String arn, String instanceType, int instanceCount, String region,
                               Instant startTime, Instant endTime, PlanStatus status, List<String> teams,
                               int inUse, int available) {
}
