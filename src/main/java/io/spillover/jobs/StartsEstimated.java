package io.spillover.jobs;

import java.util.Set;

/**
 * The estimated starts of some teams' pending jobs moved ({@link JobEstimates}), as this instance heard from the
 * database: published on every instance, whichever wrote them, for pages that show the estimates.
 *
 * @param teams the teams whose estimates moved; empty when every team's may have
 */
public record StartsEstimated(Set<String> teams) {

    /** Whether the team's estimates may have moved. */
    public boolean concerns(String team) {
        return teams.isEmpty() || teams.contains(team);
    }
}
