package io.spillover.replay;

import io.spillover.catalog.JobKind;
import io.spillover.placement.OfferingKey;
import io.spillover.placement.PlanStatus;
import io.spillover.placement.PreferenceEntry;
import io.spillover.placement.PreferenceList;
import io.spillover.placement.RequestedEntry;
import io.spillover.placement.Submission;
import io.spillover.placement.SubmissionRules;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Turns trace jobs into what their users would list. A job of g GPUs needs ceil(g / a) instances of a type with
 * a accelerators per instance; its first choice is drawn from the types' first-choice weights (per job, from the
 * seed and the job's id, so a window of the trace draws the same as the whole); the rest of its list follows the
 * team's ladder ({@link #ladder}), at most five entries. Entries the job could never get (more instances than the
 * offering has, or than the team's quota allows) are left out and counted, as a user would leave them out; a job
 * with no entry left is reported as unplaceable and replayed under no policy. Every list passes the service's own
 * submission checks ({@link SubmissionRules}). How long a job runs on each type follows from the model.
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
    private final TraceModel model;
    private final SubmissionRules rules;

    public JobChoices(Fleet fleet, TraceModel model) {
        this.fleet = fleet;
        this.model = model;
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
            List<OfferingKey> ladder = ladder(job.team());
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
            List<PreferenceEntry> choices = checked(job, ordered.subList(0, kept));
            var runs = new HashMap<String, Long>();
            choices.forEach(c -> runs.put(c.instanceType(), model.runSeconds(job, c.instanceType())));
            jobs.add(ReplayJob.ofTrace(job, jobs.size(), choices, runs,
                    model.maxRuntimeHint(job, choices.get(0).instanceType())));
        }
        return new Built(jobs, infeasible, beyondFive, unplaceable);
    }

    /**
     * Where a team's jobs may run, in the order they fall back: the model's types in order, and within a type
     * first the ACTIVE plans the team may use, then on-demand offerings that have instances.
     */
    List<OfferingKey> ladder(String team) {
        var ladder = new ArrayList<OfferingKey>();
        for (ReplayConfig.TypeSpec spec : model.types()) {
            String type = spec.instanceType();
            fleet.plans().stream().filter(p -> p.instanceType().equals(type) && p.visibleTo(team)
                            && p.status() == PlanStatus.ACTIVE)
                    .forEach(p -> ladder.add(p.offering()));
            fleet.offerings().stream().filter(k -> !k.isPlan() && k.instanceType().equals(type) && fleet.total(k) > 0)
                    .forEach(ladder::add);
        }
        return ladder;
    }

    private boolean feasible(TraceJob job, OfferingKey key) {
        int count = instancesFor(job, key.instanceType());
        return count <= fleet.total(key) && count <= fleet.rules(job.team()).limit(key.instanceType());
    }

    /** A job of g GPUs takes ceil(g / GPUs per instance) whole instances, as a SageMaker job does. */
    int instancesFor(TraceJob job, String instanceType) {
        int perInstance = fleet.acceleratorsPerInstance(instanceType);
        return (job.gpus() + perInstance - 1) / perInstance;
    }

    /** The drawn type's first place in the ladder; when the job cannot run there, its first feasible place. */
    private OfferingKey firstChoice(TraceJob job, List<OfferingKey> feasible) {
        String type = drawType(job);
        return feasible.stream().filter(k -> k.instanceType().equals(type)).findFirst().orElse(feasible.get(0));
    }

    private String drawType(TraceJob job) {
        var types = model.types();
        double total = types.stream().mapToDouble(ReplayConfig.TypeSpec::firstChoiceWeight).sum();
        double draw = new SplittableRandom(model.seed() * 1_000_003L + job.id().hashCode()).nextDouble() * total;
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
                instancesFor(job, k.instanceType()), k.planName(), k.region())).toList();
        SubmissionRules.Result result = rules.check(new Submission(JobKind.TRAINING, requested, null, null),
                fleet.idleTeam(job.team()), fleet.plansVisibleTo(job.team()));
        if (!result.accepted()) {
            throw new IllegalStateException("the service would refuse job " + job.id() + ": " + result.violations());
        }
        return result.preferences().entries();
    }
}
