package io.spillover.scheduling;

import io.spillover.placement.OfferingKey;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/**
 * Which pending jobs a cycle should evaluate, and why: named jobs, a team's jobs, the jobs listing an
 * offering, or all of them. Events that arrive while a cycle runs merge into the next scope; the latest
 * trigger for a named job (but never its submission over a later event), and the first for a team or offering, is
 * the one recorded.
 */
final class Scope {

    private Trigger all;
    private final Map<UUID, Trigger> jobs = new LinkedHashMap<>();
    private final Map<String, Trigger> teams = new LinkedHashMap<>();
    private final Map<OfferingKey, Trigger> offerings = new LinkedHashMap<>();

    static Scope everything(Trigger trigger) {
        var scope = new Scope();
        scope.all = trigger;
        return scope;
    }

    static Scope job(UUID id, Trigger trigger) {
        var scope = new Scope();
        scope.jobs.put(id, trigger);
        return scope;
    }

    static Scope team(String team, Trigger trigger) {
        var scope = new Scope();
        scope.teams.put(team, trigger);
        return scope;
    }

    static Scope offering(OfferingKey key, Trigger trigger) {
        var scope = new Scope();
        scope.offerings.put(key, trigger);
        return scope;
    }

    Scope and(Scope other) {
        if (all == null) {
            all = other.all;
        }
        // the latest event about a job explains its evaluation best, but its submission is older than anything else
        // said of it: a submission's wake-up, delivered after its commit, may arrive after a cycle that saw the job
        // anyway has placed it and its launch was refused, and must not hide that refusal
        other.jobs.forEach((job, trigger) -> {
            if (trigger != Trigger.SUBMITTED || !jobs.containsKey(job)) {
                jobs.put(job, trigger);
            }
        });
        other.teams.forEach(teams::putIfAbsent);
        other.offerings.forEach(offerings::putIfAbsent);
        return this;
    }

    /**
     * Keeps the first {@code most} named jobs (in the order they were named) and takes the others out, into the
     * scope returned: what the next cycle should evaluate.
     */
    Scope deferNamedBeyond(int most) {
        var deferred = new Scope();
        if (jobs.size() <= most) {
            return deferred;
        }
        var named = jobs.entrySet().iterator();
        for (int kept = 0; kept < most; kept++) {
            named.next();
        }
        while (named.hasNext()) {
            Map.Entry<UUID, Trigger> job = named.next();
            deferred.jobs.put(job.getKey(), job.getValue());
            named.remove();
        }
        return deferred;
    }

    /** Drops named jobs (they were evaluated since they were named). */
    void forgetJobs(java.util.Collection<UUID> evaluated) {
        evaluated.forEach(jobs::remove);
    }

    boolean isEmpty() {
        return all == null && jobs.isEmpty() && teams.isEmpty() && offerings.isEmpty();
    }

    boolean everything() {
        return all != null;
    }

    /** The trigger of an evaluation of every pending job, or null when the scope is narrower. */
    Trigger all() {
        return all;
    }

    Map<UUID, Trigger> jobs() {
        return jobs;
    }

    Map<String, Trigger> teams() {
        return teams;
    }

    Map<OfferingKey, Trigger> offerings() {
        return offerings;
    }

    /**
     * Why a job is evaluated: named first; then, for its first evaluation, its submission (whatever woke the cycle
     * that first saw it, the job is there because it was submitted); then its team, then the first of its
     * offerings that changed.
     */
    Trigger triggerFor(UUID job, String team, Iterable<OfferingKey> listed, boolean firstLook) {
        if (jobs.containsKey(job)) {
            return jobs.get(job);
        }
        if (firstLook) {
            return Trigger.SUBMITTED;
        }
        if (teams.containsKey(team)) {
            return teams.get(team);
        }
        for (OfferingKey key : listed) {
            for (Map.Entry<OfferingKey, Trigger> changed : offerings.entrySet()) {
                if (changed.getKey().region().equals(key.region())
                        && changed.getKey().instanceType().equals(key.instanceType())) {
                    return changed.getValue();
                }
            }
        }
        return all != null ? all : Trigger.SWEEP;
    }
}
