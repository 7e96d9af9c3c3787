package io.spillover.placement;

import io.spillover.catalog.JobKind;
import java.util.List;

/**
 * What a user asked for, as far as placement's rules are concerned; any part may be missing or wrong.
 *
 * @param instanceCount           the uniform count beside the list, or null when entries carry their own
 * @param maxPendingTimeInSeconds null for the configured default
 */
public record Submission(JobKind kind, List<RequestedEntry> entries, Integer instanceCount,
                         Long maxPendingTimeInSeconds, Requirements requires) {

    public Submission {
        requires = requires == null ? Requirements.NONE : requires;
    }

    public Submission(JobKind kind, List<RequestedEntry> entries, Integer instanceCount, Long maxPendingTimeInSeconds) {
        this(kind, entries, instanceCount, maxPendingTimeInSeconds, Requirements.NONE);
    }
}
