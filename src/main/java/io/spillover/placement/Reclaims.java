package io.spillover.placement;

import io.spillover.catalog.JobKind;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntFunction;

/**
 * The claims of one queue pass (its step 5, see {@link QueuePass}): which waiting jobs claim instances as their
 * team's guarantee, which free instances are held for them, and which borrowers' placements are preempted for them.
 * Every running placement is promised to at most one claim, and a team gives back at most what it holds beyond its
 * guarantee, so two claims never count the same instances and no reclaim pushes a team further below its guarantee
 * than one placement does.
 */
final class Reclaims<I extends Comparable<I>> {

    /**
     * Kueue's order of victims within a cohort: borrowed placements first, then the lowest priority, then the most
     * recently started (the least work lost), then by job for a stable order.
     */
    static final Comparator<RunningPlacement> VICTIM_ORDER = Comparator
            .comparing((RunningPlacement p) -> !p.borrowed())
            .thenComparingInt(RunningPlacement::priority)
            .thenComparing(RunningPlacement::startedAt, Comparator.reverseOrder())
            .thenComparing(RunningPlacement::job);

    /** One job's claim, with the placements it waits for, in words. */
    record Claimed(QueuePass.Claim claim, List<RunningPlacement> stopping, List<RunningPlacement> preempted,
                   List<RunningPlacement> awaited) {
    }

    private final Placement placement;
    private final SharingPolicy sharing;
    private final Capacity capacity;
    private final Instant now;
    private final Map<QueuedRequest<I>, Claimed> claims = new LinkedHashMap<>();
    private final List<QueuePass.Preemption<I>> preemptions = new ArrayList<>();
    /** Placements whose instances a claim of this pass counts on. */
    private final Set<RunningPlacement> promised = new HashSet<>();
    /** Per team and type, {@link Capacity#excessBeyondStopping}, read once a pass. */
    private final Map<List<String>, Integer> excessBeyondStopping = new HashMap<>();
    /** Per team and type, instances of its excess over its guarantee that claims of this pass count on. */
    private final Map<List<String>, Integer> excessPromised = new HashMap<>();
    /** Per team and type, what its claims of this pass need: a team claims no more than its guarantee. */
    private final Map<List<String>, Integer> claimedByTeam = new HashMap<>();
    /** {@link #reclaimable} per offering, until a promise changes it. */
    private final Map<OfferingKey, Integer> reclaimable = new HashMap<>();
    /** Per placement being stopped, the job whose claim of the previous pass counted on it. */
    private final Map<String, I> stoppedFor = new HashMap<>();
    /**
     * Placements being stopped for a teammate ({@link QueuePass.Claim#withinTeam}): theirs alone, never counted by
     * another claim (their team is within its guarantee; they are no borrower's).
     */
    private final Set<String> givingWay = new HashSet<>();

    /** @param claimed the claims of the caller's previous pass: the placements each counted on stay tied to it */
    Reclaims(Placement placement, SharingPolicy sharing, Capacity capacity, Instant now,
             Map<I, QueuePass.Claim> claimed) {
        this.placement = placement;
        this.sharing = sharing;
        this.capacity = capacity;
        this.now = now;
        claimed.forEach((job, claim) -> claim.comingBack().forEach(running -> stoppedFor.put(running, job)));
        claimed.values().stream().filter(QueuePass.Claim::withinTeam).forEach(c -> givingWay.addAll(c.comingBack()));
    }

    Map<QueuedRequest<I>, Claimed> claims() {
        return claims;
    }

    boolean claims(QueuedRequest<I> job) {
        return claims.containsKey(job);
    }

    List<QueuePass.Preemption<I>> preemptions() {
        return preemptions;
    }

    /**
     * Lets the job claim its first entry that fits within its team's guarantee once the instances borrowers hold
     * there come back; holds the free ones for it and preempts what it needs besides, if preemptible placements cover
     * it. No claim when an entry fits within the guarantee now (the job prefers to borrow an
     * earlier one), when none could fit so, or (whenCanBorrow BORROW) when an earlier entry can be borrowed.
     */
    void claim(QueuedRequest<I> job, IntFunction<String> patience) {
        PlacementRequest request = job.request();
        TeamState team = capacity.team(request.team()).orElse(null);
        if (team == null) {
            return;
        }
        int claimed = -1;
        for (int i = 0; i < request.preferences().size() && claimed < 0; i++) {
            PreferenceEntry entry = request.preferences().get(i);
            if (patience.apply(i) != null || !withinGuarantee(request, team, entry)) {
                continue;
            }
            int free = capacity.free(entry.offering());
            if (free >= entry.instanceCount()) {
                return; // it fits within its guarantee now, and the rounds left it waiting to borrow an earlier entry
            }
            if (free + reclaimable(entry.offering()) >= entry.instanceCount()) {
                claimed = i;
            }
        }
        if (claimed < 0) {
            return;
        }
        if (sharing.whenCanBorrow() == SharingPolicy.WhenCanBorrow.BORROW) {
            for (int j = 0; j < claimed; j++) {
                if (patience.apply(j) == null && placement.borrows(request, j, capacity, now, sharing)) {
                    return;
                }
            }
        }
        PreferenceEntry entry = request.preferences().get(claimed);
        OfferingKey key = entry.offering();
        claimedByTeam.merge(List.of(request.team(), entry.instanceType()), entry.instanceCount(), Integer::sum);
        int held = capacity.hold(key, entry.instanceCount(), "job " + job.id() + " of team " + request.team()
                + ", which is below its quota");
        int needed = entry.instanceCount() - held;
        List<RunningPlacement> stopping = new ArrayList<>();
        for (RunningPlacement placement : comingBack(key, job.id())) {
            if (needed > 0) {
                promise(placement);
                stopping.add(placement);
                needed -= placement.instances();
            }
        }
        List<RunningPlacement> victims = victims(key, needed);
        List<RunningPlacement> awaited = List.of();
        if (victims != null) {
            victims.forEach(this::promise);
            for (RunningPlacement victim : victims) {
                preemptions.add(new QueuePass.Preemption<>(victim, job.id(), request.team(), preemptionReason(victim,
                        job, entry)));
            }
        } else {
            victims = List.of();
            awaited = awaited(key, needed);
        }
        var comingBack = new ArrayList<String>();
        stopping.forEach(p -> comingBack.add(p.job()));
        victims.forEach(p -> comingBack.add(p.job()));
        claims.put(job, new Claimed(new QueuePass.Claim(claimed, key, entry.instanceCount(), held,
                sum(stopping) + sum(victims), sum(awaited), comingBack), stopping, victims, awaited));
    }

    /**
     * In-team preemption ({@link SharingPolicy#shorterFirst}): lets a job that fits nowhere, of a team within its
     * guarantee, whose loan would be bounded (it could borrow: it is within the borrow horizon or preemptible), take
     * its first entry whose offering its own team's long preemptible placements hold, by stopping the fewest of them
     * that make the entry fit within the team's guarantee once they are back: placed within the guarantee (a borrowed
     * placement is a lender's to reclaim), of no higher priority than the job, past their minimum run, that may still
     * run at least the policy's ratio times the job's maximum run time, in Kueue's order. A stopped teammate is
     * requeued at its place; it cannot take back what it gave way for, since the job claims it until it starts
     * ({@link QueuePass.Claim#withinTeam}).
     */
    void claimFromOwnTeam(QueuedRequest<I> job, IntFunction<String> patience) {
        PlacementRequest request = job.request();
        TeamState team = capacity.team(request.team()).orElse(null);
        if (team == null || sharing.shorterFirst() == 0 || request.maxRuntime() == null
                || !sharing.bounded(request.maxRuntime(), request.preemptible())) {
            return; // only a job that could borrow is short enough: it gets what teammates give back whatever they do
        }
        for (int i = 0; i < request.preferences().size(); i++) {
            PreferenceEntry entry = request.preferences().get(i);
            if (patience.apply(i) != null || entry.trainingPlan() != null || !placement.withinCaps(team, entry)
                    || capacity.offering(entry.offering()).filter(o -> o.total() >= entry.instanceCount()
                    && !o.unavailableAt(now)).isEmpty()) {
                continue;
            }
            List<RunningPlacement> victims = teammates(job, team, entry);
            if (victims == null) {
                continue;
            }
            OfferingKey key = entry.offering();
            int freed = sum(victims);
            int held = holdBeyondTeammates(job, key, entry.instanceCount(), freed);
            victims.forEach(this::promise);
            var comingBack = new ArrayList<String>();
            for (RunningPlacement victim : victims) {
                comingBack.add(victim.job());
                preemptions.add(new QueuePass.Preemption<>(victim, job.id(), request.team(), "preempted for job "
                        + job.id() + " of the same team, which may run at most "
                        + QueuePass.words(request.maxRuntime()) + ": this job is preemptible and " + mayRun(victim)
                        + " (shorter first within a team: at least " + ratio() + " times as long)"));
            }
            claims.put(job, new Claimed(new QueuePass.Claim(i, key, entry.instanceCount(), held, freed, 0, comingBack,
                    true), List.of(), victims, List.of()));
            return;
        }
    }

    /**
     * Keeps a claim on teammates of the previous pass while they are being stopped: what they give back stays the
     * job's, no lender's claim counts on it, and the room it needs in its team's guarantee beyond what they give
     * back stays reserved, so that no other teammate takes it meanwhile. Nothing is kept once all of it is back (the
     * job starts on it first in the pass, {@link QueuePass}, or competes as any job).
     */
    void keepFromOwnTeam(QueuedRequest<I> job, QueuePass.Claim claim) {
        var stopping = new ArrayList<RunningPlacement>();
        for (RunningPlacement running : capacity.runningOn(claim.offering())) {
            if (running.stopping() && !promised.contains(running) && job.id().equals(stoppedFor.get(running.job()))) {
                stopping.add(running);
            }
        }
        int back = sum(stopping);
        if (back == 0) {
            return;
        }
        int held = holdBeyondTeammates(job, claim.offering(), claim.instances(), back);
        stopping.forEach(this::promise);
        claims.put(job, new Claimed(new QueuePass.Claim(claim.entry(), claim.offering(), claim.instances(), held,
                back, 0, stopping.stream().map(RunningPlacement::job).toList(), true), stopping, List.of(),
                List.of()));
    }

    /**
     * The fewest of the team's placements on the entry's offering that give way to the job and, once back, let the
     * entry fit within the team's guarantee; null when they cannot, or when the team holds more than its guarantee
     * already (stopping its own jobs would first have to bring it back within it).
     */
    private List<RunningPlacement> teammates(QueuedRequest<I> job, TeamState team, PreferenceEntry entry) {
        String type = entry.instanceType();
        int need = entry.instanceCount();
        int free = capacity.free(entry.offering());
        int used = team.inUse(type) + claimedByTeam.getOrDefault(List.of(team.team(), type), 0);
        if (used > team.guarantee(type)) {
            return null; // a team beyond its guarantee gets nothing back by stopping its own: it borrows, or waits
        }
        var chosen = new ArrayList<RunningPlacement>();
        int freed = 0;
        for (RunningPlacement running : capacity.runningOn(entry.offering()).stream()
                .filter(p -> p.team().equals(team.team()) && p.preemptible() && !p.borrowed() && !p.stopping()
                        && !promised.contains(p)
                        && p.priority() <= job.priority() && !p.exemptUntil(sharing).isAfter(now)
                        && sharing.givesWay(job.request().maxRuntime(), p, now))
                .sorted(VICTIM_ORDER).toList()) {
            if (free + freed >= need && used - freed + need <= team.guarantee(type)) {
                break;
            }
            chosen.add(running);
            freed += running.instances();
        }
        if (chosen.isEmpty() || free + freed < need || used - freed + need > team.guarantee(type)) {
            return null;
        }
        // stop only what the job needs: drop, last chosen first, any the others cover without
        for (int k = chosen.size() - 1; k >= 0; k--) {
            int without = freed - chosen.get(k).instances();
            if (free + without >= need && used - without + need <= team.guarantee(type)) {
                freed = without;
                chosen.remove(k);
            }
        }
        return chosen;
    }

    /**
     * Books a claim on teammates in this pass: the team claims the instances, and what they do not give back is held
     * of the free ones, its room in the team's guarantee reserved so that no teammate takes it. How many were held.
     */
    private int holdBeyondTeammates(QueuedRequest<I> job, OfferingKey key, int instances, int givenBack) {
        String team = job.request().team();
        claimedByTeam.merge(List.of(team, key.instanceType()), instances, Integer::sum);
        int beyond = Math.max(0, instances - givenBack);
        capacity.reserve(team, key.instanceType(), beyond);
        return capacity.hold(key, beyond, "job " + job.id() + " of team " + team + ", for which teammates give way");
    }

    private String mayRun(RunningPlacement running) {
        return running.maxRuntime() == null ? "has no maximum run time" : "may run " + QueuePass.words(
                Duration.between(now, running.startedAt().plus(running.maxRuntime()))) + " more";
    }

    private String ratio() {
        double ratio = sharing.shorterFirst();
        return ratio == Math.rint(ratio) ? String.valueOf((long) ratio) : String.valueOf(ratio);
    }

    /**
     * The offering's placements being stopped that no claim of this pass counts on yet, those stopped for this job
     * first, then those stopped for no claim, then those another claim counted on (it may have started since).
     */
    private List<RunningPlacement> comingBack(OfferingKey key, I job) {
        var stopping = new ArrayList<RunningPlacement>();
        for (RunningPlacement placement : candidates(key)) {
            if (placement.stopping()) {
                stopping.add(placement);
            }
        }
        stopping.sort(Comparator.comparingInt(p -> {
            I owner = stoppedFor.get(p.job());
            return owner == null ? 1 : owner.equals(job) ? 0 : 2;
        }));
        return stopping;
    }

    /** Whether the entry fits within the team's guarantee and caps, on an offering that could hold it. */
    private boolean withinGuarantee(PlacementRequest request, TeamState team, PreferenceEntry entry) {
        String type = entry.instanceType();
        int claimed = claimedByTeam.getOrDefault(List.of(team.team(), type), 0);
        if (team.inUse(type) + claimed + entry.instanceCount() > team.guarantee(type)
                || !placement.withinCaps(team, entry)) {
            return false;
        }
        if (entry.trainingPlan() != null && (request.kind() != JobKind.TRAINING
                || Placement.planRefusal(request.team(), entry.trainingPlan(), capacity) != null)) {
            return false;
        }
        return capacity.offering(entry.offering())
                .filter(o -> o.total() >= entry.instanceCount() && !o.unavailableAt(now)).isPresent();
    }

    /**
     * Instances of the offering that claims of this pass have not counted on yet and that will come back: those
     * stopping, and per team above its guarantee what it holds there in borrowed or preemptible placements, at most
     * its excess not yet promised.
     */
    private int reclaimable(OfferingKey key) {
        if (capacity.runningOn(key).isEmpty()) {
            return 0;
        }
        Integer known = reclaimable.get(key);
        if (known == null) {
            known = reclaimableNow(key);
            reclaimable.put(key, known);
        }
        return known;
    }

    private int reclaimableNow(OfferingKey key) {
        int stopping = 0;
        var byTeam = new HashMap<String, Integer>();
        for (RunningPlacement placement : candidates(key)) {
            if (placement.stopping()) {
                stopping += placement.instances();
            } else {
                byTeam.merge(placement.team(), placement.instances(), Integer::sum);
            }
        }
        int total = stopping;
        for (Map.Entry<String, Integer> held : byTeam.entrySet()) {
            total += Math.min(excessLeft(held.getKey(), key.instanceType()), held.getValue());
        }
        return total;
    }

    /**
     * The offering's placements not yet promised that may come back: borrowed or preemptible, or being stopped (not
     * giving way to a teammate) when they borrowed or their team still holds more than its guarantee of the type. A
     * placement within its team's guarantee being stopped while the team is within it comes back to the team: its
     * own jobs, the stopped one among them, take it before a lender's claim could (one that waited long enough for a
     * hold takes it first in the pass), so no claim counts on it.
     */
    private List<RunningPlacement> candidates(OfferingKey key) {
        var candidates = new ArrayList<RunningPlacement>();
        for (RunningPlacement placement : capacity.runningOn(key)) {
            if (!promised.contains(placement) && (placement.stopping()
                    ? !givingWay.contains(placement.job()) && (placement.borrowed() || aboveGuarantee(placement))
                    : placement.borrowed() || placement.preemptible())) {
                candidates.add(placement);
            }
        }
        candidates.sort(Comparator.comparing((RunningPlacement p) -> !p.stopping()).thenComparing(VICTIM_ORDER));
        return candidates;
    }

    /**
     * The fewest preemptible placements that free {@code needed} instances, each taken only while its team is still
     * above its guarantee: those past their minimum run first, then those within it (the lender does not wait for a
     * minimum run), each group in Kueue's order; an empty list when nothing is needed; null when they cannot cover
     * it.
     */
    private List<RunningPlacement> victims(OfferingKey key, int needed) {
        if (needed <= 0) {
            return List.of();
        }
        var chosen = new ArrayList<RunningPlacement>();
        var taken = new HashMap<String, Integer>();
        int freed = 0;
        var preemptible = new ArrayList<RunningPlacement>();
        for (RunningPlacement placement : candidates(key)) {
            if (!placement.stopping() && placement.preemptible()) {
                preemptible.add(placement);
            }
        }
        preemptible.sort(Comparator.comparing((RunningPlacement p) -> p.exemptUntil(sharing).isAfter(now)));
        for (RunningPlacement placement : preemptible) {
            if (freed >= needed) {
                break;
            }
            int left = excessLeft(placement.team(), key.instanceType()) - taken.getOrDefault(placement.team(), 0);
            if (left > 0) {
                chosen.add(placement);
                taken.merge(placement.team(), placement.instances(), Integer::sum);
                freed += placement.instances();
            }
        }
        if (freed < needed) {
            return null;
        }
        // free only what the job needs: drop, last chosen first, any victim the others cover without
        for (int k = chosen.size() - 1; k >= 0; k--) {
            if (freed - chosen.get(k).instances() >= needed) {
                freed -= chosen.remove(k).instances();
            }
        }
        return chosen;
    }

    /**
     * What a claim that cannot preempt enough now counts on, soonest back first: preemptible placements (stopped once
     * the rest comes back too), then bounded borrowers by when their maximum run time ends. Promised, so that no later
     * claim of the pass counts on the same instances.
     */
    private List<RunningPlacement> awaited(OfferingKey key, int needed) {
        var candidates = candidates(key).stream().filter(p -> !p.stopping())
                .sorted(Comparator.comparing(this::backBy)).toList();
        var awaited = new ArrayList<RunningPlacement>();
        var taken = new HashMap<String, Integer>();
        for (RunningPlacement placement : candidates) {
            if (needed <= 0) {
                break;
            }
            int left = excessLeft(placement.team(), key.instanceType()) - taken.getOrDefault(placement.team(), 0);
            if (left > 0) {
                awaited.add(placement);
                taken.merge(placement.team(), placement.instances(), Integer::sum);
                needed -= placement.instances();
            }
        }
        awaited.forEach(this::promise);
        return awaited;
    }

    /** When a placement's instances can come back at the latest: now if preemptible, else its maximum run's end. */
    private Instant backBy(RunningPlacement placement) {
        if (placement.preemptible()) {
            return now;
        }
        return placement.maxRuntime() == null ? Instant.MAX : placement.startedAt().plus(placement.maxRuntime());
    }

    /**
     * What the team still gives back of its excess over its guarantee for the type: its excess once its placements
     * being stopped are back (those count once, as coming back), less what claims of this pass already count on.
     */
    private int excessLeft(String team, String type) {
        List<String> key = List.of(team, type);
        int excess = excessBeyondStopping.computeIfAbsent(key, k -> capacity.excessBeyondStopping(team, type));
        return excess - excessPromised.getOrDefault(key, 0);
    }

    private void promise(RunningPlacement placement) {
        reclaimable.clear(); // a team's excess is shared by its offerings of the type
        promised.add(placement);
        if (!placement.stopping()) {
            excessPromised.merge(List.of(placement.team(), placement.instanceType()), placement.instances(),
                    Integer::sum);
        }
    }

    private boolean aboveGuarantee(RunningPlacement placement) {
        return capacity.team(placement.team()).map(t -> t.borrowed(placement.instanceType()) > 0).orElse(false);
    }

    private static int sum(List<RunningPlacement> placements) {
        return placements.stream().mapToInt(RunningPlacement::instances).sum();
    }

    /** The claiming job's verdicts, its claimed entry saying what it claims and from whom. */
    Decision explained(QueuedRequest<I> job, Decision decision) {
        Claimed claimed = claims.get(job);
        if (claimed == null || decision.entries().isEmpty()) {
            return decision;
        }
        var verdicts = new ArrayList<>(decision.entries());
        EntryVerdict verdict = verdicts.get(claimed.claim().entry());
        verdicts.set(claimed.claim().entry(), new EntryVerdict(verdict.index(), verdict.instanceType(),
                verdict.instanceCount(), verdict.region(), verdict.source(), false, words(job, claimed)));
        return new Decision(decision.outcome(), verdicts);
    }

    /**
     * The claiming job's other entries, closed where they would fit: it waits for the entry its guarantee covers.
     */
    IntFunction<String> closedBesidesClaim(QueuedRequest<I> job, IntFunction<String> patience) {
        int entry = claims.get(job).claim().entry();
        return i -> {
            String closed = patience.apply(i);
            if (closed != null || i == entry || !placement.fits(job.request(), i, capacity, now, sharing)) {
                return closed;
            }
            return "fits, but this job waits for entry " + entry + ", which team " + job.request().team()
                    + "'s quota covers and whose instances borrowers give back";
        };
    }

    private String words(QueuedRequest<I> job, Claimed claimed) {
        QueuePass.Claim claim = claimed.claim();
        PreferenceEntry entry = job.request().preferences().get(claim.entry());
        String type = entry.instanceType();
        TeamState team = capacity.team(job.request().team()).orElseThrow();
        var parts = new ArrayList<String>();
        if (claim.held() > 0) {
            parts.add(claim.held() + " free held for this job");
        }
        for (RunningPlacement placement : claimed.stopping()) {
            parts.add(placement.instances() + " coming back from job " + placement.job() + " of team "
                    + placement.team() + ", stopping since " + Placement.TIME.format(placement.preemptedAt()));
        }
        if (claim.withinTeam()) {
            for (RunningPlacement placement : claimed.preempted()) {
                parts.add("preempting job " + placement.job() + " of this team, which " + mayRun(placement));
            }
            return entry.offering().describe() + " is held by team " + team.team() + "'s longer preemptible jobs,"
                    + " which give way to this job of at most " + QueuePass.words(job.request().maxRuntime())
                    + " (shorter first within a team): " + String.join("; ", parts);
        }
        if (!claimed.preempted().isEmpty()) {
            parts.add("reclaiming " + String.join(", and ", claimed.preempted().stream().map(p -> p.instances()
                    + " from job " + p.job() + " of team " + p.team() + ", " + (p.borrowed() ? "which borrowed them"
                    : "whose team holds more than its quota")).toList()));
        }
        for (RunningPlacement placement : claimed.awaited()) {
            parts.add("waiting for " + placement.instances() + " from job " + placement.job() + " of team "
                    + placement.team() + (placement.preemptible()
                    ? ", which is preemptible and is stopped once borrowers bounded by their maximum run time have"
                            + " given back the rest"
                    : ", which borrowed them and ends by " + Placement.TIME.format(backBy(placement))));
        }
        return entry.offering().describe() + " is within team " + team.team() + "'s quota for " + type + " ("
                + team.inUse(type) + " of " + team.guarantee(type) + " in use, " + entry.instanceCount() + " needed): "
                + String.join("; ", parts);
    }

    private String preemptionReason(RunningPlacement victim, QueuedRequest<I> job, PreferenceEntry entry) {
        return "preempted for job " + job.id() + " of team " + job.request().team() + ", which needs "
                + entry.instanceCount() + " " + entry.instanceType() + " within its quota: "
                + (victim.borrowed() ? "this job borrowed " + victim.instances() + " beyond team " + victim.team()
                + "'s quota" : "team " + victim.team() + " holds more than its quota, and this job is preemptible");
    }
}
