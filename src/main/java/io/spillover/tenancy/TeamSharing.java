package io.spillover.tenancy;

import java.util.Map;
import java.util.Objects;

/**
 * A team's sharing as stored: its strategy and borrow limit. {@link #borrowable} is how much it may hold of a type
 * beyond its guarantee; the database's overbooking guard applies the same rule (V14, team_borrowable).
 *
 * @param borrowLimitPercent of each type's guarantee; null when the limit is per type or there is none
 * @param borrowLimits       instances per type (a type not listed: none); null when the limit is in percent or there
 *                           is none
 */
public record TeamSharing(SharingStrategy strategy, Integer borrowLimitPercent, Map<String, Integer> borrowLimits) {

    public static final TeamSharing DEFAULT = new TeamSharing(SharingStrategy.LEND, null, null);

    public TeamSharing {
        Objects.requireNonNull(strategy, "strategy");
        borrowLimits = borrowLimits == null ? null : Map.copyOf(borrowLimits);
    }

    public boolean lends() {
        return strategy != SharingStrategy.RESERVE;
    }

    public boolean borrows() {
        return strategy == SharingStrategy.LEND_AND_BORROW;
    }

    /**
     * How many instances of the type the team may hold beyond its guarantee, null for no limit: none unless it
     * borrows; the percent of its guarantee, rounded down; its limit for the type (none for a type not listed); else
     * no limit.
     */
    public Integer borrowable(String instanceType, int guarantee) {
        if (!borrows()) {
            return 0;
        }
        if (borrowLimitPercent != null) {
            return guarantee * borrowLimitPercent / 100;
        }
        if (borrowLimits != null) {
            return borrowLimits.getOrDefault(instanceType, 0);
        }
        return null;
    }
}
