package io.spillover.placement;

import java.util.Objects;

/**
 * Where capacity comes from: an instance type in a region, either on demand or from a training plan.
 *
 * @param source {@value #ON_DEMAND} or {@code plan:<name>}
 */
public record OfferingKey(String region, String instanceType, String source) {

    public static final String ON_DEMAND = "on-demand";
    private static final String PLAN_PREFIX = "plan:";

    public OfferingKey {
        Objects.requireNonNull(region, "region");
        Objects.requireNonNull(instanceType, "instanceType");
        Objects.requireNonNull(source, "source");
        if (!source.equals(ON_DEMAND) && !(source.startsWith(PLAN_PREFIX) && source.length() > PLAN_PREFIX.length())) {
            throw new IllegalArgumentException("source must be on-demand or plan:<name>, not " + source);
        }
    }

    public static OfferingKey onDemand(String region, String instanceType) {
        return new OfferingKey(region, instanceType, ON_DEMAND);
    }

    public static OfferingKey plan(String region, String instanceType, String plan) {
        return new OfferingKey(region, instanceType, PLAN_PREFIX + plan);
    }

    public boolean isPlan() {
        return source.startsWith(PLAN_PREFIX);
    }

    /** The plan's name, or null for on-demand capacity. */
    public String planName() {
        return isPlan() ? source.substring(PLAN_PREFIX.length()) : null;
    }

    /** How a person names this offering: "on-demand ml.p5.48xlarge in us-east-1" or "plan h100-q4". */
    public String describe() {
        return isPlan() ? "plan " + planName() : "on-demand " + instanceType + " in " + region;
    }
}
