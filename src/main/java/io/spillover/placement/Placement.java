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
 *
 * <p><b>Borrowing</b> (SPEC §8.1). The team's headroom is its guarantee. Under a {@link SharingPolicy} that is
 * enabled, an entry beyond the guarantee fits <em>by borrowing</em> when all of these hold:
 * <ul>
 *   <li>the team's {@link SharingStrategy} borrows, and its use plus the entry stays within its
 *       {@link TeamState#ceiling ceiling} (guarantee plus {@link BorrowLimit});</li>
 *   <li>the loan is bounded: the job is preemptible, or its maximum run time is within the borrow horizon;</li>
 *   <li>the instances are free, and not held: a queue pass holds free instances for a team below its guarantee
 *       with a job waiting for them before anyone borrows (see {@link QueuePass});</li>
 *   <li>what stays free of the type covers the idle guarantee of the teams that {@link SharingStrategy#RESERVE
 *       reserve} it;</li>
 *   <li>the team's caps on accelerators and concurrent jobs hold: they are never borrowed past.</li>
 * </ul>
 * A borrowed selection is {@link Decision#borrowed()}, and its reason says so. Between an earlier entry it could
 * borrow and a later one within its guarantee, a job goes by the policy's {@link SharingPolicy.WhenCanBorrow}.
 * With sharing off (or {@link SharingPolicy#OFF}), the guarantee is a hard limit, as before sharing.
 */
public final class Placement {

    static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss 'UTC'").withZone(ZoneOffset.UTC);
    static final DateTimeFormatter DATE_TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'").withZone(ZoneOffset.UTC);

    /** What {@link #check} found: the entry fits within the guarantee, fits by borrowing, or why not. */
    private record Check(String refusal, boolean borrows) {

        static final Check FITS = new Check(null, false);
        static final Check BORROWS = new Check(null, true);
        /** A refusal {@link #check} was asked not to word. */
        static final Check REFUSED = new Check("refused", false);

        static Check refused(String reason) {
            return new Check(reason, false);
        }

        boolean fits() {
            return refusal == null;
        }
    }

    private final Catalog catalog;

    public Placement(Catalog catalog) {
        this.catalog = catalog;
    }

    /** The job within its team's guarantee only: nothing is borrowed. */
    public Decision decide(PlacementRequest request, Capacity capacity, Instant now) {
        return decide(request, capacity, now, index -> null, SharingPolicy.OFF);
    }

    /**
     * @param closed why an entry may not be taken now whatever its capacity, or null when it may
     */
    public Decision decide(PlacementRequest request, Capacity capacity, Instant now, IntFunction<String> closed) {
        return decide(request, capacity, now, closed, SharingPolicy.OFF);
    }

    /**
     * @param closed  why an entry may not be taken now whatever its capacity, or null when it may
     * @param sharing whether and how the job may borrow beyond its team's guarantee
     */
    public Decision decide(PlacementRequest request, Capacity capacity, Instant now, IntFunction<String> closed,
                           SharingPolicy sharing) {
        int size = request.preferences().size();
        var checks = new Check[size];
        var gates = new String[size];
        int firstWithin = -1;
        int firstAny = -1;
        for (int i = 0; i < size; i++) {
            gates[i] = closed.apply(i);
            checks[i] = gates[i] != null ? Check.refused(gates[i])
                    : check(request, request.preferences().get(i), capacity, now, true, sharing);
            if (checks[i].fits() && firstAny < 0) {
                firstAny = i;
            }
            if (checks[i].fits() && !checks[i].borrows() && firstWithin < 0) {
                firstWithin = i;
            }
        }
        boolean tryNext = sharing.whenCanBorrow() == SharingPolicy.WhenCanBorrow.TRY_NEXT_ENTRY;
        int selected = tryNext && firstWithin >= 0 ? firstWithin : firstAny;
        List<EntryVerdict> verdicts = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            PreferenceEntry entry = request.preferences().get(i);
            Check check = checks[i];
            if (!check.fits()) {
                verdicts.add(EntryVerdict.of(i, entry, false, check.refusal()));
            } else if (i < selected) {
                // only a borrowing entry can come before the selection: one within the guarantee comes first
                verdicts.add(EntryVerdict.of(i, entry, false, "could borrow " + entry.instanceCount() + " "
                        + entry.instanceType() + " beyond team " + request.team() + "'s quota, but entry " + selected
                        + " fits within it, and a list borrows only when no entry fits within the quota"));
            } else if (i == selected) {
                verdicts.add(EntryVerdict.of(i, entry, true, (check.borrows() ? borrowing(request, entry) : "selected")
                        + capacity.offering(entry.offering()).map(OfferingState::limitNote).map(note -> "; " + note)
                        .orElse("")));
            } else {
                verdicts.add(EntryVerdict.of(i, entry, true, "fits too; entry " + selected + " comes first"));
            }
        }
        return selected < 0 ? new Decision(Decision.Outcome.NOTHING_FITS, verdicts)
                : new Decision(Decision.Outcome.SELECTED, verdicts, checks[selected].borrows());
    }

    /** The selected entry's reason when it borrows, as the job's page and the audit show it. */
    private static String borrowing(PlacementRequest request, PreferenceEntry entry) {
        return "selected: borrowing " + entry.instanceCount() + " " + entry.instanceType() + " beyond team "
                + request.team() + "'s quota from idle capacity; "
                + (request.preemptible() ? "may be reclaimed"
                : "returned within its maximum run time of " + QueuePass.words(request.maxRuntime()));
    }

    /** Whether one entry fits now within the team's guarantee: what {@link #decide} finds for it, unworded. */
    public boolean fits(PlacementRequest request, int index, Capacity capacity, Instant now) {
        return fits(request, index, capacity, now, SharingPolicy.OFF);
    }

    /**
     * Whether one entry fits now, within the guarantee or by borrowing under {@code sharing}: what {@link #decide}
     * finds for it, without wording a reason.
     */
    public boolean fits(PlacementRequest request, int index, Capacity capacity, Instant now, SharingPolicy sharing) {
        return check(request, request.preferences().get(index), capacity, now, false, sharing).fits();
    }

    /** Whether the entry would fit now only by borrowing (it fits, and not within the guarantee). */
    public boolean borrows(PlacementRequest request, int index, Capacity capacity, Instant now, SharingPolicy sharing) {
        return check(request, request.preferences().get(index), capacity, now, false, sharing).borrows();
    }

    /**
     * Whether the entry fits now, and how. Unless {@code word}, a refusal is only {@link Check#REFUSED}: the queue
     * pass asks this of many entries and words the verdicts of few.
     */
    private Check check(PlacementRequest request, PreferenceEntry entry, Capacity capacity, Instant now,
                        boolean word, SharingPolicy sharing) {
        if (entry.trainingPlan() != null) {
            if (request.kind() != JobKind.TRAINING) {
                return Check.refused("training plans serve training jobs only");
            }
            String planRefusal = planRefusal(request.team(), entry.trainingPlan(), capacity);
            if (planRefusal != null) {
                return Check.refused(planRefusal);
            }
        }
        OfferingKey key = entry.offering();
        Optional<OfferingState> found = capacity.offering(key);
        if (found.isEmpty() || found.get().total() == 0) {
            return word ? Check.refused(key.describe() + " has no instances") : Check.REFUSED;
        }
        OfferingState offering = found.get();
        if (offering.unavailableAt(now)) {
            return !word ? Check.REFUSED : Check.refused(key.describe() + " marked unavailable until "
                    + TIME.format(offering.unavailableUntil())
                    + (offering.unavailableCause() == null ? "" : " after " + offering.unavailableCause()));
        }
        int count = entry.instanceCount();
        int free = capacity.free(key);
        if (free < count) {
            return !word ? Check.REFUSED : Check.refused(key.describe() + " has " + free + " of " + offering.total()
                    + " instances free" + capacity.hold(key).map(h -> " (" + h + ")").orElse("")
                    + ", " + count + " needed");
        }
        return teamCheck(request, entry, capacity, word, sharing);
    }

    static String planRefusal(String team, String planName, Capacity capacity) {
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

    private Check teamCheck(PlacementRequest request, PreferenceEntry entry, Capacity capacity, boolean word,
                            SharingPolicy sharing) {
        String teamName = request.team();
        Optional<TeamState> found = capacity.team(teamName);
        if (found.isEmpty()) {
            return Check.refused("team " + teamName + " does not exist");
        }
        TeamState team = found.get();
        String type = entry.instanceType();
        int count = entry.instanceCount();
        boolean borrows = team.inUse(type) + count > team.guarantee(type);
        if (borrows) {
            String refusal = borrowRefusal(request, team, entry, capacity, word, sharing);
            if (refusal != null) {
                return Check.refused(refusal);
            }
        }
        int accelerators = count * catalog.get(type).acceleratorCount();
        if (team.maxAccelerators() != null && team.acceleratorsInUse() + accelerators > team.maxAccelerators()) {
            return !word ? Check.REFUSED : Check.refused("team accelerator cap: " + team.acceleratorsInUse() + " of "
                    + team.maxAccelerators() + " in use, " + accelerators + " needed");
        }
        if (team.maxConcurrentJobs() != null && team.jobsInUse() >= team.maxConcurrentJobs()) {
            return !word ? Check.REFUSED : Check.refused("team concurrent-job cap: " + team.jobsInUse() + " of "
                    + team.maxConcurrentJobs() + " jobs running");
        }
        return borrows ? Check.BORROWS : Check.FITS;
    }

    /** Why the entry, beyond the team's guarantee, may not borrow; null when it may. */
    private static String borrowRefusal(PlacementRequest request, TeamState team, PreferenceEntry entry,
                                        Capacity capacity, boolean word, SharingPolicy sharing) {
        String type = entry.instanceType();
        int count = entry.instanceCount();
        if (!sharing.enabled() || !team.sharing().borrows()) {
            return !word ? Check.REFUSED.refusal() : quota(team, type, count);
        }
        if (!sharing.bounded(request.maxRuntime(), request.preemptible())) {
            return !word ? Check.REFUSED.refusal() : quota(team, type, count) + "; borrowing beyond it needs a maximum"
                    + " run time of at most " + QueuePass.words(sharing.borrowHorizon()) + " or a checkpoint to resume"
                    + " from";
        }
        if (team.inUse(type) + count > team.ceiling(type)) {
            return !word ? Check.REFUSED.refusal() : quota(team, type, count) + "; team " + team.team()
                    + " may borrow at most " + team.mayBorrow(type) + " beyond it";
        }
        int reserved = capacity.reservedIdle(type, team.team());
        int freeOfType = capacity.freeOfType(type);
        if (freeOfType - count < reserved) {
            return !word ? Check.REFUSED.refusal() : quota(team, type, count) + "; of the " + freeOfType + " " + type
                    + " free, " + reserved + " are kept for teams that do not lend their idle quota";
        }
        return null;
    }

    private static String quota(TeamState team, String type, int count) {
        return "team quota for " + type + ": " + team.inUse(type) + " of " + team.limit(type) + " in use, " + count
                + " needed";
    }

    /** Whether the team's hard caps (accelerators, concurrent jobs) leave room for the entry. */
    boolean withinCaps(TeamState team, PreferenceEntry entry) {
        int accelerators = entry.instanceCount() * catalog.get(entry.instanceType()).acceleratorCount();
        return (team.maxAccelerators() == null || team.acceleratorsInUse() + accelerators <= team.maxAccelerators())
                && (team.maxConcurrentJobs() == null || team.jobsInUse() < team.maxConcurrentJobs());
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
