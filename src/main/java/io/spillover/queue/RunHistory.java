package io.spillover.queue;

import io.spillover.placement.ExpectedRuns;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * What fair share and expected run times need of the jobs' history: the port {@link FairShares} reads it
 * through, implemented by the jobs module, whose tables these are.
 */
public interface RunHistory {

    /** A run going on now: its team, profile (null for none), what it runs on and its own maximum run time, if any. */
    record Running(String team, String profile, String instanceType, int instanceCount, Duration maxRuntime) {
    }

    /**
     * Per team and instance type, the sum over runs that ended after {@code since} of instance count ×
     * (2^(-(now - end) / halfLife) - 2^(-(now - start) / halfLife)): their decayed usage in instances,
     * before the factor of the decay's mean life.
     */
    record Ended(String team, String instanceType, double decayedInstances) {
    }

    List<Running> running();

    List<Ended> ended(Instant now, Instant since, Duration halfLife);

    /**
     * The median of the latest completed runs of a team, or of one of a team's profiles.
     *
     * @param profile null for the team's runs, whatever their profile
     * @param runs    how many runs the median is of
     */
    record Typical(String team, String profile, Duration median, int runs) {
    }

    /**
     * Per team, and per profile of each team, the median of its latest {@code runs} completed runs that ended
     * after {@code since}.
     */
    List<Typical> typicalRuns(Instant since, int runs);

    /**
     * A completed run among the latest of its team, and perhaps of its profile in the team.
     *
     * @param ofTeam    among the team's latest runs
     * @param ofProfile among the latest runs of its profile in the team (false without a profile)
     */
    record Completed(String team, String profile, Duration run, boolean ofTeam, boolean ofProfile) {
    }

    /**
     * The runs {@link #typicalRuns} takes its medians of: per team, and per profile of each team, its latest
     * {@code runs} completed runs that ended after {@code since}, each once.
     */
    List<Completed> latestRuns(Instant since, int runs);

    /**
     * What is known of each sweep now ({@link ExpectedRuns.Sweep}): of its latest {@link ExpectedRuns#SWEEP_RUNS}
     * members to have started, the runs of those that completed and how long those running now have run. A sweep
     * none of whose members has started is left out.
     */
    Map<UUID, ExpectedRuns.Sweep> sweeps(Collection<UUID> sweeps, Instant now);
}
