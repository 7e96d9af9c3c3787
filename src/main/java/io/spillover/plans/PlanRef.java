package io.spillover.plans;

/** A registered training plan as the provider looks it up: by ARN, in its region. */
public record PlanRef(String name, String arn, String region) {
}
