package io.spillover.replay;

import io.spillover.catalog.JobKind;
import io.spillover.placement.OfferingKey;
import io.spillover.placement.PreferenceEntry;
import io.spillover.placement.PreferenceList;
import io.spillover.placement.RequestedEntry;
import io.spillover.placement.Submission;
import io.spillover.placement.SubmissionRules;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Turns trace jobs into what their users would list. A job of g GPUs needs ceil(g / 8) instances of an
 * 8-GPU type; its first choice is drawn from the types' first-choice weights (per job, from the seed and the
 * job's id, so a window of the trace draws the same as the whole); the rest of its list follows the team's
 * ladder ({@link Fleet#ladder}), at most five entries. Entries the job could never get (more instances
 * than the offering has, or than the team's quota allows) are left out and counted, as a user would leave
 * them out; a job with no entry left is reported as unplaceable and replayed under no policy. Every list
 * passes the service's own submission checks ({@link SubmissionRules}).
 */
public final class JobChoices {

    /** The replayable jobs, in submission order, and what was left out, for the report. */
    public record Built(List<ReplayJob> jobs, int infeasibleEntries, int entriesBeyondFive, List<String> unplaceable) {

        public Built {
            jobs = List.copyOf(jobs);
            unplaceable = List.copyOf(unplaceable);
        }
    }

    private final Fleet fleet;
    private final SubmissionRules rules;

    public JobChoices(Fleet fleet) {
        this.fleet = fleet;
        String defaultRegion = fleet.regions().iterator().next();
        this.rules = new SubmissionRules(fleet.catalog(),
                new SubmissionRules.Limits(1, 2_419_200, defaultRegion, fleet.regions()));
    }

    /** @param trace the jobs in submission order */
    public Built build(List<TraceJob> trace) {
        var jobs = new ArrayList<ReplayJob>(trace.size());
        var unplaceable = new ArrayList<String>();
        int infeasible = 0;
        int beyondFive = 0;
        for (TraceJob job : trace) {
            List<OfferingKey> ladder = fleet.ladder(job.team());
            List<OfferingKey> feasible = ladder.stream().filter(k -> feasible(job, k)).toList();
            infeasible += ladder.size() - feasible.size();
            if (feasible.isEmpty()) {
                unplaceable.add(job.id());
                continue;
            }
            OfferingKey first = firstChoice(job, feasible);
            var ordered = new ArrayList<OfferingKey>(List.of(first));
            feasible.stream().filter(k -> !k.equals(first)).forEach(ordered::add);
            int kept = Math.min(PreferenceList.MAX_ENTRIES, ordered.size());
            beyondFive += ordered.size() - kept;
            jobs.add(new ReplayJob(job, jobs.size(), checked(job, ordered.subList(0, kept))));
        }
        return new Built(jobs, infeasible, beyondFive, unplaceable);
    }

    private boolean feasible(TraceJob job, OfferingKey key) {
        int count = fleet.instancesFor(job, key.instanceType());
        return count <= fleet.total(key) && count <= fleet.quota(key.instanceType());
    }

    /** The drawn type's first place in the ladder; when the job cannot run there, its first feasible place. */
    private OfferingKey firstChoice(TraceJob job, List<OfferingKey> feasible) {
        String type = drawType(job);
        return feasible.stream().filter(k -> k.instanceType().equals(type)).findFirst().orElse(feasible.get(0));
    }

    private String drawType(TraceJob job) {
        var types = fleet.types();
        double total = types.stream().mapToDouble(ReplayConfig.TypeSpec::firstChoiceWeight).sum();
        double draw = new SplittableRandom(fleet.config().seed() * 1_000_003L + job.id().hashCode()).nextDouble() * total;
        for (ReplayConfig.TypeSpec type : types) {
            draw -= type.firstChoiceWeight();
            if (draw < 0) {
                return type.instanceType();
            }
        }
        return types.get(types.size() - 1).instanceType();
    }

    /** The list as the service would accept it; a refusal here is a mistake in the replay, not a result. */
    private List<PreferenceEntry> checked(TraceJob job, List<OfferingKey> places) {
        var requested = places.stream().map(k -> new RequestedEntry(k.instanceType(),
                fleet.instancesFor(job, k.instanceType()), k.planName(), k.region())).toList();
        SubmissionRules.Result result = rules.check(new Submission(JobKind.TRAINING, requested, null, null),
                fleet.idleTeam(job.team()), fleet.plansVisibleTo(job.team()));
        if (!result.accepted()) {
            throw new IllegalStateException("the service would refuse job " + job.id() + ": " + result.violations());
        }
        return result.preferences().entries();
    }
}
