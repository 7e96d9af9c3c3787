package io.spillover.whatif;

import io.spillover.catalog.JobKind;
import io.spillover.placement.PlanState;
import io.spillover.placement.PreferenceEntry;
import io.spillover.placement.PreferenceList;
import io.spillover.placement.QueuePolicy;
import io.spillover.replay.Fleet;
import io.spillover.replay.ReplayJob;
import java.util.ArrayList;
import java.util.List;

/**
 * One side of a what-if run: the fleet and queue policy it replays on, and the plans a change added, which the
 * jobs of their teams then list ({@link #jobs}).
 */
record Scenario(Fleet fleet, QueuePolicy policy, List<PlanState> addedPlans) {

    Scenario {
        addedPlans = List.copyOf(addedPlans);
    }

    static Scenario of(Fleet fleet, QueuePolicy policy) {
        return new Scenario(fleet, policy, List.of());
    }

    Scenario with(Fleet changed) {
        return new Scenario(changed, policy, addedPlans);
    }

    Scenario with(QueuePolicy changed) {
        return new Scenario(fleet, changed, addedPlans);
    }

    Scenario withAdded(PlanState plan, int instances) {
        var added = new ArrayList<>(addedPlans);
        added.add(plan);
        return new Scenario(fleet.withPlan(plan, instances), policy, added);
    }

    Scenario withoutPlan(String name) {
        return new Scenario(fleet.withoutPlan(name), policy,
                addedPlans.stream().filter(p -> !p.name().equals(name)).toList());
    }

    /**
     * The jobs as they ask on this side. A training job of a team an added plan serves, whose list names the plan's
     * instance type, lists the plan as a team with a plan would: just before its first entry of that type. An
     * on-demand entry of the plan's type in the plan's region gives up its place to it, since a list names each type
     * and region once (SPEC §3.1.1); a list that would grow past five entries loses its last one. A job whose list
     * has another plan in that place keeps its list.
     */
    List<ReplayJob> jobs(List<ReplayJob> jobs) {
        if (addedPlans.isEmpty()) {
            return jobs;
        }
        var asked = new ArrayList<ReplayJob>(jobs.size());
        for (ReplayJob job : jobs) {
            List<PreferenceEntry> choices = job.choices();
            if (job.kind() == JobKind.TRAINING) {
                for (PlanState plan : addedPlans) {
                    if (plan.visibleTo(job.team())) {
                        choices = listing(plan, choices);
                    }
                }
            }
            asked.add(choices == job.choices() ? job : job.withChoices(choices));
        }
        return asked;
    }

    private static List<PreferenceEntry> listing(PlanState plan, List<PreferenceEntry> choices) {
        int first = -1;
        for (int i = 0; i < choices.size(); i++) {
            PreferenceEntry entry = choices.get(i);
            if (entry.instanceType().equals(plan.instanceType())) {
                if (plan.name().equals(entry.trainingPlan())) {
                    return choices; // listed already
                }
                if (first < 0) {
                    first = i;
                }
            }
        }
        if (first < 0) {
            return choices;
        }
        var listed = new ArrayList<>(choices);
        PreferenceEntry onPlan = new PreferenceEntry(plan.instanceType(), choices.get(first).instanceCount(),
                plan.region(), plan.name());
        int sameRegion = -1;
        for (int i = 0; i < choices.size(); i++) {
            PreferenceEntry entry = choices.get(i);
            if (entry.instanceType().equals(plan.instanceType()) && entry.region().equals(plan.region())) {
                sameRegion = i;
            }
        }
        if (sameRegion >= 0) {
            if (choices.get(sameRegion).trainingPlan() != null) {
                return choices; // another plan holds that place in the list
            }
            listed.set(sameRegion, onPlan);
            if (sameRegion != first) {
                listed.remove(sameRegion);
                listed.add(first, onPlan);
            }
        } else {
            listed.add(first, onPlan);
            if (listed.size() > PreferenceList.MAX_ENTRIES) {
                listed.remove(listed.size() - 1);
            }
        }
        return List.copyOf(listed);
    }
}
