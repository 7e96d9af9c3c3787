package io.spillover.fleet;

import io.spillover.fleet.Evidence.Acknowledged;
import io.spillover.fleet.Evidence.Entry;
import io.spillover.fleet.Evidence.StoredJob;
import io.spillover.fleet.Evidence.Takeover;
import io.spillover.fleet.Evidence.Transition;
import io.spillover.fleet.Evidence.Verdict;
import io.spillover.providers.sagemaker.FakeSageMaker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * What must hold after any number of leaders died at any moment, checked against the {@link Evidence} of a
 * run. Each invariant is one method that adds a violation per breach, naming the job, offering and moment;
 * {@link #check} runs them all and answers every violation found (none when all hold).
 */
final class Invariants {

    static final Duration TAKEOVER_LIMIT = Duration.ofSeconds(10);
    /** How a placement reads in the log ({@code io.spillover.jobs.Job#start}): the only record of each attempt's selection. */
    static final Pattern PLACED = Pattern.compile("placed on entry (\\d+): (\\d+) x (\\S+) in (\\S+) \\((\\S+)\\)");
    /** The provider-side name of an attempt ({@code io.spillover.jobs.Job#providerJobName}). */
    static final Pattern PROVIDER_NAME = Pattern.compile("spl-([0-9a-f]{32})-(\\d+)");
    /** Statuses in which a job holds the capacity of its current attempt (SPEC §3.5.4; {@code JobStatus.ON_PROVIDER}). */
    private static final Set<String> HOLDING = Set.of("STARTING", "RUNNING", "STOPPING");

    private final Evidence evidence;
    private final Map<UUID, StoredJob> jobs = new HashMap<>();
    private final List<String> violations = new ArrayList<>();

    Invariants(Evidence evidence) {
        this.evidence = evidence;
        evidence.jobs().forEach(job -> jobs.put(job.id(), job));
    }

    static List<String> check(Evidence evidence) {
        var invariants = new Invariants(evidence);
        invariants.noJobLost();
        invariants.noJobLaunchedTwice();
        invariants.nothingOverbookedAtAnyMomentOfTheAuditLog();
        invariants.theProviderNeverRanMoreThanTheFleet();
        invariants.everyJobEndedAsTheProviderEndedItOrWaitsWithReasons();
        invariants.everyTakeoverWithinTheLimit();
        return List.copyOf(invariants.violations);
    }

    /**
     * The violations counted as the chaos summary reports them: {@code lost} (an acknowledged submission
     * without its one job), {@code doubled} (a provider job made twice, or two of one job in progress at once),
     * {@code overbooked} (in the audit log or on the provider), and {@code other}; every key is present.
     */
    static Map<String, Long> tally(List<String> violations) {
        Map<String, Long> tally = new LinkedHashMap<>();
        List.of("lost", "doubled", "overbooked", "other").forEach(kind -> tally.put(kind, 0L));
        for (String violation : violations) {
            String kind = violation.startsWith("job lost") || violation.startsWith("client token ") ? "lost"
                    : violation.startsWith("launched twice") ? "doubled"
                    : violation.startsWith("overbooked") ? "overbooked" : "other";
            tally.merge(kind, 1L, Long::sum);
        }
        return tally;
    }

    /** 1. Every acknowledged submission has exactly one job, the one the client was told of. */
    void noJobLost() {
        Map<String, List<StoredJob>> byToken = evidence.jobs().stream().filter(job -> job.clientToken() != null)
                .collect(Collectors.groupingBy(job -> job.team() + "/" + job.clientToken()));
        for (Acknowledged ack : evidence.acknowledged()) {
            List<StoredJob> found = byToken.getOrDefault(ack.team() + "/" + ack.clientToken(), List.of());
            if (found.size() != 1) {
                violate("job lost: client token %s of team %s was acknowledged as job %s, but the database has %d"
                        + " job(s) with that token", ack.clientToken(), ack.team(), ack.jobName(), found.size());
            } else if (!found.get(0).name().equals(ack.jobName())) {
                violate("client token %s of team %s was acknowledged as job %s, but its job is %s", ack.clientToken(),
                        ack.team(), ack.jobName(), found.get(0).describe());
            }
        }
    }

    /**
     * 2. At most one provider job is made per attempt, each belongs to an attempt the database started, and the
     * provider jobs of one job are never in progress at the same time.
     */
    void noJobLaunchedTwice() {
        Map<String, Long> made = evidence.creates().stream().filter(FakeSageMaker.Create::created)
                .collect(Collectors.groupingBy(FakeSageMaker.Create::name, TreeMap::new, Collectors.counting()));
        Set<String> started = new HashSet<>();
        evidence.transitions().stream().filter(t -> "STARTING".equals(t.to()))
                .forEach(t -> started.add(t.jobId() + "#" + t.attempt()));
        made.forEach((name, times) -> {
            if (times > 1) {
                violate("launched twice: provider job %s was created %d times", name, times);
            }
            Matcher matcher = PROVIDER_NAME.matcher(name);
            UUID id = matcher.matches() ? uuid(matcher.group(1)) : null;
            StoredJob job = id == null ? null : jobs.get(id);
            if (job == null) {
                violate("provider job %s belongs to no job in the database", name);
            } else if (!started.contains(id + "#" + matcher.group(2))) {
                violate("provider job %s is attempt %s of job %s, which the database never started", name,
                        matcher.group(2), job.describe());
            }
        });
        Map<String, Set<String>> inProgress = new HashMap<>();
        Set<String> reported = new HashSet<>();
        for (FakeSageMaker.StatusChange change : evidence.providerChanges()) {
            Matcher matcher = PROVIDER_NAME.matcher(change.name());
            String job = matcher.matches() ? matcher.group(1) : change.name();
            Set<String> running = inProgress.computeIfAbsent(job, j -> new LinkedHashSet<>());
            if ("InProgress".equals(change.status())) {
                running.add(change.name());
            } else {
                running.remove(change.name());
            }
            if (running.size() > 1 && reported.add(job)) {
                violate("launched twice: job %s had provider jobs %s in progress at once at %s (provider change #%d)",
                        Optional.ofNullable(jobs.get(uuid(job))).map(StoredJob::describe).orElse(job), running,
                        change.at(), change.seq());
            }
        }
    }

    /**
     * 3. Replays the append-only transitions in commit order and counts, per offering, plan, team quota and
     * team, the instances (or jobs) held; asserts each count within its limit after every transition, and
     * that what the log leaves in use at the end is what the offerings' counters say.
     *
     * <p>A job holds its attempt's capacity from PENDING → STARTING (the transaction that books it) until it
     * leaves STARTING/RUNNING/STOPPING (for PENDING after a refused launch or a lost attempt, or for an end): the
     * transaction that releases it. Transition ids are commit order for any one counter: every booking or release updates the
     * counter's row before it inserts its transition, and that row lock is held to commit, so a later
     * transaction touching the same counter takes its id after.
     */
    void nothingOverbookedAtAnyMomentOfTheAuditLog() {
        var limits = evidence.limits();
        Map<UUID, Hold> holds = new LinkedHashMap<>();
        for (Transition t : evidence.transitions()) {
            StoredJob job = jobs.get(t.jobId());
            String who = job == null ? t.jobId().toString() : job.describe();
            Hold held = holds.get(t.jobId());
            if ("STARTING".equals(t.to())) {
                if (held != null) {
                    violate("job %s was placed again at transition #%d (%s) while still holding %s", who, t.id(),
                            t.at(), held);
                }
                Hold hold = placement(t, job, who);
                if (hold == null) {
                    continue;
                }
                holds.put(t.jobId(), hold);
                within(holds, "offering " + hold.offering(), Hold::offering, hold.offering(),
                        limits.offerings().get(hold.offering()), t, who);
                if (hold.plan() != null) {
                    within(holds, "training plan " + hold.plan(), Hold::plan, hold.plan(),
                            limits.plans().get(hold.plan()), t, who);
                }
                within(holds, "team quota " + hold.quota(), Hold::quota, hold.quota(),
                        limits.quotas().getOrDefault(hold.quota(), 0), t, who);
                Integer maxJobs = limits.concurrentJobs().get(hold.team());
                if (maxJobs != null) {
                    long jobsHeld = holds.values().stream().filter(h -> h.team().equals(hold.team())).count();
                    if (jobsHeld > maxJobs) {
                        violate("overbooked: team %s had %d jobs on capacity, its cap is %d, after transition #%d"
                                + " at %s placed job %s", hold.team(), jobsHeld, maxJobs, t.id(), t.at(), who);
                    }
                }
            } else if (HOLDING.contains(t.to())) {
                if (held == null) {
                    violate("job %s became %s at transition #%d (%s) without holding capacity", who, t.to(), t.id(),
                            t.at());
                }
            } else if (held != null) {
                holds.remove(t.jobId());
            }
        }
        Map<String, Integer> leftInUse = new TreeMap<>();
        holds.values().forEach(h -> leftInUse.merge(h.offering(), h.count(), Integer::sum));
        limits.offeringsInUse().forEach((offering, counter) -> {
            int logged = leftInUse.getOrDefault(offering, 0);
            if (logged != counter) {
                violate("offering %s: the audit log leaves %d instance(s) in use, its counter says %d", offering,
                        logged, counter);
            }
        });
    }

    /** 3. The provider's side: never more instances of a type in progress at once than the fleet offers of it. */
    void theProviderNeverRanMoreThanTheFleet() {
        Map<String, Integer> fleet = new TreeMap<>();
        evidence.limits().offerings().forEach((offering, total) -> fleet.merge(offering.split("/")[1], total,
                Integer::sum));
        for (FakeSageMaker.Peak peak : evidence.providerPeaks().values()) {
            int total = fleet.getOrDefault(peak.instanceType(), 0);
            if (peak.instances() > total) {
                violate("overbooked on the provider: %d x %s were in progress at once at %s (%s), the fleet has %d",
                        peak.instances(), peak.instanceType(), peak.at(), String.join(", ", peak.jobs()), total);
            }
        }
    }

    /**
     * 4. No job is left on the way (STARTING, RUNNING, STOPPING); a pending one has a latest evaluation that
     * gives every entry a reason; an ended one ended as the provider ended its last attempt.
     */
    void everyJobEndedAsTheProviderEndedItOrWaitsWithReasons() {
        Map<String, String> providerStatus = new HashMap<>();
        evidence.providerChanges().forEach(change -> providerStatus.put(change.name(), change.status()));
        for (StoredJob job : evidence.jobs()) {
            if (HOLDING.contains(job.status())) {
                violate("job %s is still %s", job.describe(), job.status());
            } else if ("PENDING".equals(job.status())) {
                waitsWithReasons(job);
            } else if (Evidence.ENDED.contains(job.status()) && job.attempt() > 0) {
                String name = "spl-" + job.id().toString().replace("-", "") + "-" + job.attempt();
                String seen = providerStatus.get(name);
                boolean agrees = switch (job.status()) {
                    case "COMPLETED" -> "Completed".equals(seen);
                    // A launch the provider refused for good made no job: the job failed with its message.
                    case "FAILED" -> "Failed".equals(seen) || (seen == null && "PROVIDER_ERROR".equals(job.reason()));
                    default -> "Stopped".equals(seen) || seen == null;
                };
                if (!agrees) {
                    violate("job %s ended %s (%s), but the provider's job %s is %s", job.describe(), job.status(),
                            job.reason(), name, seen == null ? "unknown to it" : seen);
                }
            }
        }
    }

    private void waitsWithReasons(StoredJob job) {
        Evidence.Evaluation latest = job.latestEvaluation();
        if (latest == null) {
            violate("job %s is PENDING and was never evaluated", job.describe());
            return;
        }
        if ("SELECTED".equals(latest.outcome())) {
            violate("job %s is PENDING, but its latest evaluation selected an entry", job.describe());
        }
        Set<Integer> explained = latest.entries().stream().filter(v -> !v.fits() && !v.reason().isBlank())
                .map(Verdict::index).collect(Collectors.toSet());
        for (Entry entry : job.entries()) {
            if (!explained.contains(entry.index())) {
                violate("job %s is PENDING, but its latest evaluation gives entry %d (%s) no reason to wait",
                        job.describe(), entry.index(), entry.instanceType());
            }
        }
    }

    /** 5. Another instance held the scheduler lock within the limit after each leader's death. */
    void everyTakeoverWithinTheLimit() {
        for (Takeover takeover : evidence.takeovers()) {
            if (takeover.after().compareTo(TAKEOVER_LIMIT) > 0) {
                violate("slow takeover: after %s killed leader %s, %s held the lock only %d ms later (limit %d s)",
                        takeover.how(), takeover.killed(), takeover.successor(), takeover.after().toMillis(),
                        TAKEOVER_LIMIT.toSeconds());
            }
        }
    }

    /** What one attempt holds: where, how many, and whose quota. */
    private record Hold(String team, String offering, String plan, String quota, int count, String job) {

        @Override
        public String toString() {
            return count + " x " + offering + " for " + job;
        }
    }

    /** The attempt a placement started, read from its transition and checked against the job's list. */
    private Hold placement(Transition t, StoredJob job, String who) {
        Matcher placed = PLACED.matcher(t.message() == null ? "" : t.message());
        if (!placed.find()) {
            violate("job %s was placed at transition #%d (%s), but the log does not say where: %s", who, t.id(), t.at(),
                    t.message());
            return null;
        }
        int index = Integer.parseInt(placed.group(1));
        int count = Integer.parseInt(placed.group(2));
        String type = placed.group(3);
        String region = placed.group(4);
        String source = placed.group(5);
        Entry entry = job == null ? null : job.entries().stream().filter(e -> e.index() == index).findFirst()
                .orElse(null);
        if (entry == null || entry.instanceCount() != count || !entry.instanceType().equals(type)
                || !entry.region().equals(region) || !entry.source().equals(source)) {
            violate("job %s was placed at transition #%d on entry %d as %d x %s in %s (%s), which its list does not"
                    + " have: %s", who, t.id(), index, count, type, region, source, job == null ? "no job" : job.entries());
        }
        String plan = source.startsWith("plan:") ? source.substring("plan:".length()) : null;
        return new Hold(t.team(), Evidence.offering(region, type, source), plan, t.team() + "/" + type, count, who);
    }

    /** Sums what the holds of one offering, plan or quota hold, and reports it when above its limit. */
    private void within(Map<UUID, Hold> holds, String what, Function<Hold, String> key, String value, Integer limit,
                        Transition t, String who) {
        List<Hold> sharing = holds.values().stream().filter(h -> value.equals(key.apply(h))).toList();
        int held = sharing.stream().mapToInt(Hold::count).sum();
        if (limit == null) {
            violate("job %s was placed at transition #%d on %s, which has no limit in the database", who, t.id(), what);
        } else if (held > limit) {
            violate("overbooked: %s held %d of %d instances after transition #%d at %s placed job %s; holding: %s",
                    what, held, limit, t.id(), t.at(), who, sharing);
        }
    }

    private void violate(String format, Object... arguments) {
        violations.add(String.format(format, arguments));
    }

    private static UUID uuid(String hex) {
        try {
            return UUID.fromString(hex.replaceFirst("(.{8})(.{4})(.{4})(.{4})(.{12})", "$1-$2-$3-$4-$5"));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
