package io.spillover.placement;

import io.spillover.catalog.Catalog;
import io.spillover.catalog.JobKind;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Evaluates a job against capacity in one pass over its entries, in order (SPEC §3.3.1): an entry fits
 * when its source has the instances free, the team's headroom covers them and the offering is not marked
 * unavailable. The first entry that fits is selected; every entry gets a verdict.
 */
public final class Placement {

    static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss 'UTC'").withZone(ZoneOffset.UTC);
    static final DateTimeFormatter DATE_TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'").withZone(ZoneOffset.UTC);

    private final Catalog catalog;

    public Placement(Catalog catalog) {
        this.catalog = catalog;
    }

    public Decision decide(PlacementRequest request, Capacity capacity, Instant now) {
        List<EntryVerdict> verdicts = new ArrayList<>(request.preferences().size());
        Integer selected = null;
        for (int i = 0; i < request.preferences().size(); i++) {
            PreferenceEntry entry = request.preferences().get(i);
            Optional<String> refusal = refusal(request, entry, capacity, now);
            if (refusal.isPresent()) {
                verdicts.add(EntryVerdict.of(i, entry, false, refusal.get()));
            } else if (selected == null) {
                selected = i;
                verdicts.add(EntryVerdict.of(i, entry, true, "selected"));
            } else {
                verdicts.add(EntryVerdict.of(i, entry, true, "fits too; entry " + selected + " comes first"));
            }
        }
        return new Decision(selected == null ? Decision.Outcome.NOTHING_FITS : Decision.Outcome.SELECTED, verdicts);
    }

    /** Why the entry cannot be used now, or empty when it fits. */
    private Optional<String> refusal(PlacementRequest request, PreferenceEntry entry, Capacity capacity, Instant now) {
        if (entry.trainingPlan() != null) {
            if (request.kind() != JobKind.TRAINING) {
                return Optional.of("training plans serve training jobs only");
            }
            Optional<String> planRefusal = planRefusal(request.team(), entry.trainingPlan(), capacity);
            if (planRefusal.isPresent()) {
                return planRefusal;
            }
        }
        OfferingKey key = entry.offering();
        Optional<OfferingState> found = capacity.offering(key);
        if (found.isEmpty() || found.get().total() == 0) {
            return Optional.of(key.describe() + " has no instances");
        }
        OfferingState offering = found.get();
        if (offering.unavailableAt(now)) {
            return Optional.of(key.describe() + " marked unavailable until " + TIME.format(offering.unavailableUntil())
                    + (offering.unavailableCause() == null ? "" : " after " + offering.unavailableCause()));
        }
        int count = entry.instanceCount();
        if (offering.available() < count) {
            return Optional.of(key.describe() + " has " + offering.available() + " of " + offering.total()
                    + " instances free, " + count + " needed");
        }
        return teamRefusal(request.team(), entry, capacity);
    }

    private static Optional<String> planRefusal(String team, String planName, Capacity capacity) {
        Optional<PlanState> found = capacity.plan(planName).filter(p -> p.visibleTo(team));
        if (found.isEmpty()) {
            return Optional.of("plan " + planName + " is not available to team " + team);
        }
        PlanState plan = found.get();
        return switch (plan.status()) {
            case ACTIVE -> Optional.empty();
            case PENDING -> Optional.of("plan " + planName + " is not yet confirmed");
            // PlanState allows unknown times (a plan synced before its window is set); refuse, don't throw
            case SCHEDULED -> Optional.of("plan " + planName + (plan.startTime() == null ? " has not started yet"
                    : " starts at " + DATE_TIME.format(plan.startTime())));
            case EXPIRED -> Optional.of("plan " + planName + (plan.endTime() == null ? " has expired"
                    : " expired at " + DATE_TIME.format(plan.endTime())));
            case FAILED -> Optional.of("plan " + planName + " failed");
        };
    }

    private Optional<String> teamRefusal(String teamName, PreferenceEntry entry, Capacity capacity) {
        Optional<TeamState> found = capacity.team(teamName);
        if (found.isEmpty()) {
            return Optional.of("team " + teamName + " does not exist");
        }
        TeamState team = found.get();
        String type = entry.instanceType();
        int count = entry.instanceCount();
        if (team.inUse(type) + count > team.limit(type)) {
            return Optional.of("team quota for " + type + ": " + team.inUse(type) + " of " + team.limit(type)
                    + " in use, " + count + " needed");
        }
        int accelerators = count * catalog.get(type).acceleratorCount();
        if (team.maxAccelerators() != null && team.acceleratorsInUse() + accelerators > team.maxAccelerators()) {
            return Optional.of("team accelerator cap: " + team.acceleratorsInUse() + " of " + team.maxAccelerators()
                    + " in use, " + accelerators + " needed");
        }
        if (team.maxConcurrentJobs() != null && team.jobsInUse() >= team.maxConcurrentJobs()) {
            return Optional.of("team concurrent-job cap: " + team.jobsInUse() + " of " + team.maxConcurrentJobs()
                    + " jobs running");
        }
        return Optional.empty();
    }

    /** Books the decision's selection in the working capacity, so the next decision of a cycle sees it. */
    public void book(PlacementRequest request, Decision decision, Capacity capacity) {
        EntryVerdict selected = decision.selected()
                .orElseThrow(() -> new IllegalArgumentException("nothing selected to book"));
        PreferenceEntry entry = request.preferences().get(selected.index());
        capacity.take(request.team(), entry, catalog.get(entry.instanceType()).acceleratorCount());
    }
}
