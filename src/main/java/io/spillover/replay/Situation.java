package io.spillover.replay;

import io.spillover.placement.OfferingState;
import io.spillover.placement.PlanState;
import io.spillover.placement.PreferenceEntry;
import io.spillover.placement.QueuePolicy;
import io.spillover.placement.QueuedRequest;
import io.spillover.placement.RunningPlacement;
import io.spillover.placement.SharingPolicy;
import io.spillover.placement.TeamShare;
import io.spillover.placement.TeamState;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Everything a {@link Forecast} starts from: the platform as a scheduling cycle would see it at {@code now}, what
 * runs and what waits, and what is known of their run times.
 *
 * @param offerings every offering with its total and what is in use now (the running jobs' instances included)
 * @param plans     the training plans with their windows: a SCHEDULED plan becomes ACTIVE at its start, an ACTIVE
 *                  one EXPIRED at its end (its jobs stopped then)
 * @param teams     every team's quota and use now
 * @param shares    every team's fair-share standing now, read only when the policy's fair share is on
 * @param sweepRuns the ended runs of each sweep a job belongs to, by {@link Runs#sweep}; the running members are
 *                  the running jobs of that sweep
 * @param running   the jobs holding instances now
 * @param waiting   the pending jobs, in any order; each gets an estimate
 * @param arrivals  jobs expected to be submitted later (each at its {@code submittedAt}), to compete with the
 *                  waiting ones; they get no estimate. Empty for none
 * @param sharing   how guarantees are lent, borrowed and reclaimed, as the scheduler's pass has it: the forecast's
 *                  passes borrow and reclaim as the scheduler's do ({@link SharingPolicy#OFF} for hard limits)
 */
public record Situation<I extends Comparable<I>>(Instant now, QueuePolicy policy, Collection<OfferingState> offerings,
                                                 Collection<PlanState> plans, Collection<TeamState> teams,
                                                 Map<String, TeamShare> shares, Map<String, List<Duration>> sweepRuns,
                                                 List<Running<I>> running, List<Waiting<I>> waiting,
                                                 List<Waiting<I>> arrivals, SharingPolicy sharing) {

    /**
     * A job holding instances.
     *
     * @param ranFor    how long it has run so far (zero while it starts)
     * @param stopping  being stopped: it ends at once
     * @param placement what a reclaim knows of it (whether it borrowed, may be preempted, its priority and maximum run
     *                  time), as the scheduler's snapshot holds it; null for a placement that neither borrowed nor
     *                  may be preempted
     */
    public record Running<I>(I id, String team, PreferenceEntry entry, Duration ranFor, boolean stopping, Runs runs,
                             RunningPlacement placement) {

        public Running {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(team, "team");
            Objects.requireNonNull(entry, "entry");
            Objects.requireNonNull(runs, "runs");
            ranFor = ranFor == null || ranFor.isNegative() ? Duration.ZERO : ranFor;
        }

        /** A job that neither borrowed nor may be preempted. */
        public Running(I id, String team, PreferenceEntry entry, Duration ranFor, boolean stopping, Runs runs) {
            this(id, team, entry, ranFor, stopping, runs, null);
        }
    }

    /**
     * A job waiting for capacity (or, among the arrivals, one expected to be submitted).
     *
     * @param job      as the queue holds it; its expected run is the forecast's to work out
     * @param deadline when it gives up waiting (its maximum pending time), null for never
     */
    public record Waiting<I extends Comparable<I>>(QueuedRequest<I> job, Runs runs, Instant deadline) {

        public Waiting {
            Objects.requireNonNull(job, "job");
            Objects.requireNonNull(runs, "runs");
        }
    }

    /** A situation whose guarantees are hard limits: nothing is lent, borrowed or reclaimed. */
    public Situation(Instant now, QueuePolicy policy, Collection<OfferingState> offerings, Collection<PlanState> plans,
                     Collection<TeamState> teams, Map<String, TeamShare> shares, Map<String, List<Duration>> sweepRuns,
                     List<Running<I>> running, List<Waiting<I>> waiting, List<Waiting<I>> arrivals) {
        this(now, policy, offerings, plans, teams, shares, sweepRuns, running, waiting, arrivals, SharingPolicy.OFF);
    }

    public Situation {
        Objects.requireNonNull(now, "now");
        Objects.requireNonNull(policy, "policy");
        Objects.requireNonNull(sharing, "sharing");
        offerings = List.copyOf(offerings);
        plans = List.copyOf(plans);
        teams = List.copyOf(teams);
        shares = Map.copyOf(shares);
        sweepRuns = Map.copyOf(sweepRuns);
        running = List.copyOf(running);
        waiting = List.copyOf(waiting);
        arrivals = List.copyOf(arrivals);
    }
}
