package io.spillover.profiles;

import io.spillover.catalog.JobKind;
import io.spillover.placement.JobTimeLimit;
import io.spillover.placement.RequestedEntry;
import io.spillover.placement.Requirements;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Size;
import java.util.List;

/**
 * The body of {@code PUT /teams/{team}/profiles/{profile}}: a preference list with an optional uniform
 * count, an optional maximum pending time, an optional patience for earlier entries ({@code fallbackAfterSeconds},
 * 0 for the first entry that fits), what its jobs' containers need, and a description. {@code kind},
 * when given, makes the checks on save those of that kind of job.
 */
public record ProfileDefinition(JobKind kind, List<RequestedEntry> instancePreferences, Integer instanceCount,
                                Long maxPendingTimeInSeconds, @Min(0) @Max(JobTimeLimit.MAX_SECONDS) Long fallbackAfterSeconds,
                                Requirements requires,
                                @Size(max = 1000) String description) {
}
