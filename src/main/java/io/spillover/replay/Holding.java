package io.spillover.replay;

import io.spillover.placement.PreferenceEntry;
import java.util.Objects;

/**
 * Instances a run outside the replay holds when it begins, given back at {@code untilSeconds}: a replay can start
 * from the fleet as it is at a moment, not only from an idle one. Such a run counts against its offering and its
 * team's quota like any other, but is no job of the replay's: it is in no figure and teaches the queue nothing of
 * run times.
 *
 * @param untilSeconds virtual time at which it ends, in seconds from the start of the replay
 */
public record Holding(String team, PreferenceEntry entry, long untilSeconds) {

    public Holding {
        Objects.requireNonNull(team, "team");
        Objects.requireNonNull(entry, "entry");
        if (untilSeconds < 0) {
            throw new IllegalArgumentException("a holding ends at a virtual time of 0 or later");
        }
    }
}
