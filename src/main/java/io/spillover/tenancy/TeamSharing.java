package io.spillover.tenancy;

import java.util.Map;
import java.util.Objects;

/**
 * A team's sharing as stored: its strategy and borrow limits. {@link #borrowable} is the one rule of how much it may
 * hold of a type beyond its guarantee; the database's overbooking guard applies the same (V14, team_borrowable).
 *
 * @param borrowLimitPercent of each type's guarantee, for the types without a limit of their own; null for none
 * @param borrowLimits       instances per type, whatever the guarantee of the type
 */
public record TeamSharing(SharingStrategy strategy, Integer borrowLimitPercent, Map<String, Integer> borrowLimits) {

    public static final TeamSharing DEFAULT = new TeamSharing(SharingStrategy.LEND, null, Map.of());

    public TeamSharing {
        Objects.requireNonNull(strategy, "strategy");
        borrowLimits = Map.copyOf(borrowLimits);
    }

    public boolean lends() {
        return strategy != SharingStrategy.RESERVE;
    }

    public boolean borrows() {
        return strategy == SharingStrategy.LEND_AND_BORROW;
    }

    /**
     * How many instances of the type the team may hold beyond its guarantee, null for no bound: none unless it
     * borrows; its limit for the type when it has one; none of a type it has no guarantee for; else the percent
     * of its guarantee, rounded down, or no bound when no percent is set.
     */
    public Integer borrowable(String instanceType, int guarantee) {
        if (!borrows()) {
            return 0;
        }
        if (borrowLimits.containsKey(instanceType)) {
            return borrowLimits.get(instanceType);
        }
        if (guarantee == 0) {
            return 0;
        }
        return borrowLimitPercent == null ? null : guarantee * borrowLimitPercent / 100;
    }
}
