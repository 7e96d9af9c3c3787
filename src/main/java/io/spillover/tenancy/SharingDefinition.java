package io.spillover.tenancy;

import io.spillover.placement.SharingStrategy;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import java.util.Map;

/**
 * A team's sharing in {@code PUT /admin/teams/{team}}: its strategy (default {@code LEND}) and, for a team that
 * borrows, how much: {@code borrowLimitPercent} of each type's guarantee, or {@code borrowLimits} in instances per
 * type (a type not listed: none; also a type it has no guarantee for), never both; neither: no limit but what is
 * idle.
 */
public record SharingDefinition(
        SharingStrategy strategy,
        @Min(0) @Max(10_000) Integer borrowLimitPercent,
        @Size(max = 500) Map<String, @NotNull @Min(0) @Max(100_000) Integer> borrowLimits) {

    /** What a team gets when its definition says nothing of sharing. */
    public static final SharingDefinition DEFAULT = new SharingDefinition(SharingStrategy.LEND, null, null);

    /** The strategy, {@code LEND} when not given. */
    public SharingStrategy strategyOrDefault() {
        return strategy == null ? SharingStrategy.LEND : strategy;
    }
}
