package io.spillover.placement;

import java.util.Map;
import java.util.Objects;

/**
 * How far beyond its guarantee a team may go, per instance type: in percent of each type's guarantee (AWS Batch's
 * {@code borrowLimit}: 100 lets a team of 4 hold 8), as instances per type, or without limit. Applies only to a team
 * whose {@link SharingStrategy} borrows.
 *
 * @param percent   percent of the type's guarantee, or null when the limit is per type or unlimited
 * @param instances instances per type (a type not listed: none), or null when the limit is in percent or unlimited
 */
public record BorrowLimit(Integer percent, Map<String, Integer> instances) {

    /** No limit but the fleet: AWS Batch's {@code borrowLimit} of -1, its default. */
    public static final BorrowLimit UNLIMITED = new BorrowLimit(null, null);

    public BorrowLimit {
        if (percent != null && instances != null) {
            throw new IllegalArgumentException("a borrow limit is in percent or per type, not both");
        }
        if (percent != null && percent < 0) {
            throw new IllegalArgumentException("a borrow limit in percent cannot be negative");
        }
        if (instances != null) {
            instances = Map.copyOf(instances);
            instances.forEach((type, n) -> {
                Objects.requireNonNull(type, "instance type");
                if (n == null || n < 0) {
                    throw new IllegalArgumentException("the borrow limit for " + type + " must be 0 or more");
                }
            });
        }
    }

    public static BorrowLimit percent(int percent) {
        return new BorrowLimit(percent, null);
    }

    public static BorrowLimit perType(Map<String, Integer> instances) {
        return new BorrowLimit(null, instances);
    }

    public boolean unlimited() {
        return percent == null && instances == null;
    }

    /**
     * Instances of the type the team may hold beyond its guarantee; {@link Integer#MAX_VALUE} when unlimited. A
     * percentage rounds down: 50 % of a guarantee of 3 lets the team borrow 1.
     */
    public int beyond(String instanceType, int guarantee) {
        if (percent != null) {
            return (int) Math.min(Integer.MAX_VALUE, (long) guarantee * percent / 100);
        }
        if (instances != null) {
            return instances.getOrDefault(instanceType, 0);
        }
        return Integer.MAX_VALUE;
    }

    /** In words: "unlimited", "100 % of the guarantee", "2 ml.p4d.24xlarge, 1 ml.g5.48xlarge". */
    public String describe() {
        if (percent != null) {
            return percent + " % of the guarantee";
        }
        if (instances != null) {
            return instances.isEmpty() ? "none" : String.join(", ", new java.util.TreeMap<>(instances).entrySet()
                    .stream().map(e -> e.getValue() + " " + e.getKey()).toList());
        }
        return "unlimited";
    }
}
