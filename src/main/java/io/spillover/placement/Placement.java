package io.spillover.placement;

import io.spillover.catalog.Catalog;
import io.spillover.catalog.JobKind;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.IntFunction;

/**
 * Evaluates a job against capacity in one pass over its entries, in order (SPEC §3.3.1): an entry fits
 * when its source has the instances free, the team's headroom covers them and the offering is not marked
 * unavailable. The first entry that fits is selected; every entry gets a verdict. A queue policy may close
 * entries for a while (a job's patience for its earlier entries, see {@link QueuePass}): a closed entry does
 * not fit, and its verdict says why.
 */
public final class Placement {

    static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss 'UTC'").withZone(ZoneOffset.UTC);
    static final DateTimeFormatter DATE_TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'").withZone(ZoneOffset.UTC);

    /** The marker {@link #check} returns for a refusal it was asked not to word. */
    private static final String REFUSED = "refused";

    private final Catalog catalog;

    public Placement(Catalog catalog) {
        this.catalog = catalog;
    }

    public Decision decide(PlacementRequest request, Capacity capacity, Instant now) {
        return decide(request, capacity, now, index -> null);
    }

    /**
     * @param closed why an entry may not be taken now whatever its capacity, or null when it may
     */
    public Decision decide(PlacementRequest request, Capacity capacity, Instant now, IntFunction<String> closed) {
        List<EntryVerdict> verdicts = new ArrayList<>(request.preferences().size());
        Integer selected = null;
        for (int i = 0; i < request.preferences().size(); i++) {
            PreferenceEntry entry = request.preferences().get(i);
            String gate = closed.apply(i);
            String refusal = gate != null ? gate : check(request, entry, capacity, now, true);
            if (refusal != null) {
                verdicts.add(EntryVerdict.of(i, entry, false, refusal));
            } else if (selected == null) {
                selected = i;
                verdicts.add(EntryVerdict.of(i, entry, true, "selected" + capacity.offering(entry.offering())
                        .map(OfferingState::limitNote).map(note -> "; " + note).orElse("")));
            } else {
                verdicts.add(EntryVerdict.of(i, entry, true, "fits too; entry " + selected + " comes first"));
            }
        }
        return new Decision(selected == null ? Decision.Outcome.NOTHING_FITS : Decision.Outcome.SELECTED, verdicts);
    }

    /** Whether one entry fits now: what {@link #decide} finds for it, without wording a reason. */
    public boolean fits(PlacementRequest request, int index, Capacity capacity, Instant now) {
        return check(request, request.preferences().get(index), capacity, now, false) == null;
    }

    /**
     * Why the entry cannot be used now, or null when it fits. Unless {@code word}, a refusal is only
     * {@link #REFUSED}: the queue pass asks this of many entries and words the verdicts of few.
     */
    private String check(PlacementRequest request, PreferenceEntry entry, Capacity capacity, Instant now,
                         boolean word) {
        if (entry.trainingPlan() != null) {
            if (request.kind() != JobKind.TRAINING) {
                return "training plans serve training jobs only";
            }
            String planRefusal = planRefusal(request.team(), entry.trainingPlan(), capacity);
            if (planRefusal != null) {
                return planRefusal;
            }
        }
        OfferingKey key = entry.offering();
        Optional<OfferingState> found = capacity.offering(key);
        if (found.isEmpty() || found.get().total() == 0) {
            return word ? key.describe() + " has no instances" : REFUSED;
        }
        OfferingState offering = found.get();
        if (offering.unavailableAt(now)) {
            return !word ? REFUSED : key.describe() + " marked unavailable until "
                    + TIME.format(offering.unavailableUntil())
                    + (offering.unavailableCause() == null ? "" : " after " + offering.unavailableCause());
        }
        int count = entry.instanceCount();
        int free = capacity.free(key);
        if (free < count) {
            return !word ? REFUSED : key.describe() + " has " + free + " of " + offering.total()
                    + " instances free" + capacity.hold(key).map(h -> " (" + h + ")").orElse("")
                    + ", " + count + " needed";
        }
        return teamRefusal(request.team(), entry, capacity, word);
    }

    private static String planRefusal(String team, String planName, Capacity capacity) {
        Optional<PlanState> found = capacity.plan(planName).filter(p -> p.visibleTo(team));
        if (found.isEmpty()) {
            return "plan " + planName + " is not available to team " + team;
        }
        PlanState plan = found.get();
        return switch (plan.status()) {
            case ACTIVE -> null;
            case PENDING -> "plan " + planName + " is not yet confirmed";
            // PlanState allows unknown times (a plan synced before its window is set); refuse, don't throw
            case SCHEDULED -> "plan " + planName + (plan.startTime() == null ? " has not started yet"
                    : " starts at " + DATE_TIME.format(plan.startTime()));
            case EXPIRED -> "plan " + planName + (plan.endTime() == null ? " has expired"
                    : " expired at " + DATE_TIME.format(plan.endTime()));
            case FAILED -> "plan " + planName + " failed";
        };
    }

    private String teamRefusal(String teamName, PreferenceEntry entry, Capacity capacity, boolean word) {
        Optional<TeamState> found = capacity.team(teamName);
        if (found.isEmpty()) {
            return "team " + teamName + " does not exist";
        }
        TeamState team = found.get();
        String type = entry.instanceType();
        int count = entry.instanceCount();
        if (team.inUse(type) + count > team.limit(type)) {
            return !word ? REFUSED : "team quota for " + type + ": " + team.inUse(type) + " of " + team.limit(type)
                    + " in use, " + count + " needed";
        }
        int accelerators = count * catalog.get(type).acceleratorCount();
        if (team.maxAccelerators() != null && team.acceleratorsInUse() + accelerators > team.maxAccelerators()) {
            return !word ? REFUSED : "team accelerator cap: " + team.acceleratorsInUse() + " of "
                    + team.maxAccelerators() + " in use, " + accelerators + " needed";
        }
        if (team.maxConcurrentJobs() != null && team.jobsInUse() >= team.maxConcurrentJobs()) {
            return !word ? REFUSED : "team concurrent-job cap: " + team.jobsInUse() + " of "
                    + team.maxConcurrentJobs() + " jobs running";
        }
        return null;
    }

    /** What one instance of the type counts for in fair share ({@link io.spillover.catalog.InstanceType#shareUnits}). */
    public int shareUnits(String instanceType) {
        return catalog.get(instanceType).shareUnits();
    }

    /** Books the decision's selection in the working capacity, so the next decision of a cycle sees it. */
    public void book(PlacementRequest request, Decision decision, Capacity capacity) {
        EntryVerdict selected = decision.selected()
                .orElseThrow(() -> new IllegalArgumentException("nothing selected to book"));
        PreferenceEntry entry = request.preferences().get(selected.index());
        capacity.take(request.team(), entry, catalog.get(entry.instanceType()).acceleratorCount());
    }
}
