package io.spillover.bench;

import io.micrometer.core.instrument.Timer;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.JsonNode;

/**
 * The service benchmark's parts about issue #32, kept apart from {@link ServiceBench}'s own: the submissions against
 * the framework's floor ({@link FloorEndpoint}), the wake-up chains with estimates off and on, what the estimator
 * takes meanwhile, how soon a release's moved estimates are written, and the bursts.
 */
final class EstimatesParts {

    /** The floor endpoint, for team bench. */
    static final String FLOOR_PATH = "/teams/bench/floor";
    /** The team whose line of hinted jobs waits on {@link #LINE_TYPE}. */
    static final String LINE_TEAM = "line";
    /** The offering the line waits on: one instance, nothing else uses it. */
    static final String LINE_TYPE = "ml.m5.2xlarge";
    /** Each job of the line expects to run this long ({@code expectedRuntimeSeconds}): a release moves the rest by it. */
    static final int LINE_HINT_SECONDS = 3_600;
    /** Jobs of the line that still wait after the last release. */
    static final int LINE_SPARE = 3;
    /** How often the runner reads the line's estimates while it waits for them to move. */
    static final Duration POLL = Duration.ofMillis(5);

    private EstimatesParts() {
    }

    /**
     * The floor endpoint measured as the submissions were, right after them (its warm-up came after theirs), from
     * the same clients with the same bodies; the submissions' figures as ratios to it.
     *
     * @param throughputRatio submissions per second over the floor's requests per second
     * @param p99Ratio        the submissions' p99 latency over the floor's
     * @param warmUp          the warm-up rounds before, until the JIT settled
     */
    record Floor(ServiceBench.Submissions floor, double throughputRatio, double p99Ratio,
                 List<ServiceBench.WarmUpRound> warmUp) {
    }

    static Floor floor(ServiceBench.Submissions floor, ServiceBench.Submissions submissions,
                       List<ServiceBench.WarmUpRound> warmUp) {
        var result = new Floor(floor, submissions.perSecond() / floor.perSecond(),
                submissions.latencyMs().p99() / floor.latencyMs().p99(), warmUp);
        ServiceBench.log("  the floor: %.0f requests/s, p50 %.1f ms, p99 %.1f ms; submissions %.2f x its throughput, p99 %.2f x"
                .formatted(floor.perSecond(), floor.latencyMs().p50(), floor.latencyMs().p99(),
                        result.throughputRatio(), result.p99Ratio()));
        return result;
    }

    /**
     * What the estimator took over a stretch of time: the share of it its estimations ran (wall time, the database's
     * work for them included) and the share its thread was on a CPU, and its estimations by scope.
     */
    record Load(double seconds, double busyShare, double cpuShare, long changes, double changesMeanMs, long full,
                double fullMeanMs, double asideMeanMs) {

        /** Two stretches as one. */
        Load and(Load other) {
            double all = seconds + other.seconds;
            long count = changes + full + other.changes + other.full;
            return new Load(all, (busyShare * seconds + other.busyShare * other.seconds) / all,
                    (cpuShare * seconds + other.cpuShare * other.seconds) / all, changes + other.changes,
                    mean(changes, changesMeanMs, other.changes, other.changesMeanMs), full + other.full,
                    mean(full, fullMeanMs, other.full, other.fullMeanMs),
                    count == 0 ? 0 : (asideMeanMs * (changes + full) + other.asideMeanMs * (other.changes + other.full))
                            / count);
        }

        private static double mean(long n, double mean, long m, double otherMean) {
            return n + m == 0 ? 0 : (n * mean + m * otherMean) / (n + m);
        }
    }

    /** Where the estimator stood at a moment: its timers and its thread's CPU time. */
    record Mark(long nanos, long changes, double changesMs, long full, double fullMs, long cpuNanos, double asideMs) {
    }

    static Mark mark(ServiceBench.Run run) {
        Timer changes = timer(run, "changes");
        Timer full = timer(run, "full");
        return new Mark(System.nanoTime(), changes.count(), changes.totalTime(TimeUnit.MILLISECONDS), full.count(),
                full.totalTime(TimeUnit.MILLISECONDS), estimatorCpuNanos(),
                run.registry.get("spillover.estimates.aside").timer().totalTime(TimeUnit.MILLISECONDS));
    }

    static Load since(ServiceBench.Run run, Mark from) {
        Mark to = mark(run);
        double ms = (to.nanos() - from.nanos()) / 1e6;
        long changes = to.changes() - from.changes();
        long full = to.full() - from.full();
        double changesMs = to.changesMs() - from.changesMs();
        double fullMs = to.fullMs() - from.fullMs();
        return new Load(ms / 1e3, (changesMs + fullMs) / ms, Math.max(0, to.cpuNanos() - from.cpuNanos()) / 1e6 / ms,
                changes, changes == 0 ? 0 : changesMs / changes, full, full == 0 ? 0 : fullMs / full,
                changes + full == 0 ? 0 : (to.asideMs() - from.asideMs()) / (changes + full));
    }

    private static Timer timer(ServiceBench.Run run, String scope) {
        return run.registry.get("spillover.estimates.run").tag("scope", scope).timer();
    }

    /** The CPU time of the estimator's thread, if it runs (0 when estimates are off). */
    private static long estimatorCpuNanos() {
        var threads = ManagementFactory.getThreadMXBean();
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals("spillover-estimates"))
                .mapToLong(t -> Math.max(0, threads.getThreadCpuTime(t.getId()))).sum();
    }

    /** Turns the estimator off, or on and waits for its first (full) estimation and a second more. */
    static void estimates(ServiceBench.Run run, boolean on) throws Exception {
        if (!on) {
            run.estimator.stop();
            return;
        }
        long full = timer(run, "full").count();
        run.estimator.start();
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while (timer(run, "full").count() == full) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the estimator made no full estimation in 2 minutes");
            }
            Thread.sleep(20);
        }
        Thread.sleep(1_000);
    }

    /**
     * The chains with estimates off and on at one queue length, in halves taken in turn (off, on, off, on), each
     * half's wake-ups pooled with the other's of its kind: whatever drifts during the minutes they take (autovacuum,
     * the tables' dead rows, the machine) falls on both kinds alike, not on whichever runs second.
     *
     * @param offHalves the second off half's p99 over the first's: how far the same chain moves by itself
     */
    record Interleaved(ServiceBench.WakeUp off, ServiceBench.WakeUp on, Load load, double offHalves) {
    }

    static Interleaved interleaved(ServiceBench.Run run, int level) throws Exception {
        int half = Math.max(run.settings.lanes(), run.settings.levelReleases() / 2);
        ServiceBench.WakeUp off = null;
        ServiceBench.WakeUp on = null;
        Load load = null;
        double firstOffP99 = 0;
        double offHalves = 0;
        for (int round = 0; round < 2; round++) {
            estimates(run, false);
            ServiceBench.WakeUp offHalf = run.lanes(half, "chain-off-" + level + "-" + round + "-");
            estimates(run, true);
            Mark from = mark(run);
            ServiceBench.WakeUp onHalf = run.lanes(half, "chain-" + level + "-" + round + "-");
            Load halfLoad = since(run, from);
            ServiceBench.log(("  half %d: estimates off: wake-up p50 %.0f ms, p99 %.0f ms, max %.0f ms; on: p50 %.0f ms,"
                    + " p99 %.0f ms, max %.0f ms").formatted(round + 1, offHalf.serverMs().p50(),
                    offHalf.serverMs().p99(), offHalf.serverMs().max(), onHalf.serverMs().p50(),
                    onHalf.serverMs().p99(), onHalf.serverMs().max()));
            if (round == 0) {
                firstOffP99 = offHalf.serverMs().p99();
                off = offHalf;
                on = onHalf;
                load = halfLoad;
            } else {
                offHalves = offHalf.serverMs().p99() / firstOffP99;
                off = off.and(offHalf);
                on = on.and(onHalf);
                load = load.and(halfLoad);
            }
        }
        ServiceBench.log("  estimates off: wake-up p50 %.0f ms, p99 %.0f ms, max %.0f ms (second half over first at the p99: %.2f)"
                .formatted(off.serverMs().p50(), off.serverMs().p99(), off.serverMs().max(), offHalves));
        return new Interleaved(off, on, load, offHalves);
    }

    /**
     * At one queue length: the chain with estimates off and on, what the estimator took during the on chain, and the
     * releases of the line's offering.
     */
    record AtLevel(int pending, ServiceBench.WakeUp off, ServiceBench.WakeUp on, Load load, Refresh refresh,
                   double offHalves) {

        /** The on chain's p99 over the off chain's. */
        double p99Ratio() {
            return on.serverMs().p99() / off.serverMs().p99();
        }
    }

    /**
     * Releases of the line's offering, each by stopping the job that runs there: the next job starts, and every job
     * still waiting behind it now expects to start about {@link #LINE_HINT_SECONDS} earlier.
     *
     * @param ms       from the release (the stopped job's {@code endedAt}, the server's clock) to the moment the runner
     *                 saw every waiting job of the line estimated anew from a reading made after the release, its p50 at
     *                 least 30 minutes earlier than before it (reading {@code job_estimates} every {@link #POLL};
     *                 runner and server share the machine's clock); {@link #GIVE_UP} where that did not happen
     * @param timedOut releases after which the line's estimates had not all moved within {@link #GIVE_UP}
     */
    record Refresh(int releases, int waiting, ServiceBench.Percentiles ms, int timedOut) {
    }

    /** How long the runner waits for a release's estimates before it counts the release as timed out. */
    static final Duration GIVE_UP = Duration.ofMinutes(2);

    static Refresh refresh(ServiceBench.Run run, int level) throws Exception {
        int releases = run.settings.refreshReleases();
        String prefix = "line-" + level + "-";
        String running = prefix + "first";
        ServiceBench.Run.expect(run.send(LINE_TEAM, "POST", "/teams/" + LINE_TEAM + "/jobs", hinted(running)), 201);
        run.awaitStatus(LINE_TEAM, running, "RUNNING");
        var waiting = new ArrayList<String>();
        for (int i = 0; i < releases + LINE_SPARE; i++) {
            String name = prefix + i;
            ServiceBench.Run.expect(run.send(LINE_TEAM, "POST", "/teams/" + LINE_TEAM + "/jobs", hinted(name)), 201);
            waiting.add(name);
        }
        Map<String, UUID> ids = new HashMap<>();
        run.jdbc.query("SELECT name, id FROM jobs WHERE team = ? AND name LIKE ?",
                rs -> { ids.put(rs.getString(1), rs.getObject(2, UUID.class)); }, LINE_TEAM, prefix + "%");
        var ms = new ArrayList<Double>();
        int timedOut = 0;
        for (int r = 0; r < releases; r++) {
            List<UUID> behind = waiting.stream().map(ids::get).toList();
            Map<UUID, Instant> before = forecast(run, behind);
            long stopAt = System.nanoTime();
            ServiceBench.Run.expect(run.send(LINE_TEAM, "POST", "/teams/" + LINE_TEAM + "/jobs/" + running + "/stop",
                    "{}"), 200);
            String next = waiting.remove(0);
            List<UUID> moving = waiting.stream().map(ids::get).toList();
            Instant seen = awaitMovedEarlier(run, moving, before, ids.get(running), stopAt);
            JsonNode stopped = run.awaitStatus(LINE_TEAM, running, "STOPPED");
            if (seen == null) {
                timedOut++;
                ms.add((double) GIVE_UP.toMillis());
            } else {
                ms.add(Duration.between(Instant.parse(stopped.get("endedAt").asString()), seen).toNanos() / 1e6);
            }
            run.awaitStatus(LINE_TEAM, next, "RUNNING");
            running = next;
        }
        for (String job : waiting) {
            run.send(LINE_TEAM, "POST", "/teams/" + LINE_TEAM + "/jobs/" + job + "/stop", "{}");
        }
        run.send(LINE_TEAM, "POST", "/teams/" + LINE_TEAM + "/jobs/" + running + "/stop", "{}");
        var refresh = new Refresh(releases, releases + LINE_SPARE, ServiceBench.Percentiles.of(ms), timedOut);
        ServiceBench.log("  release → moved estimates written: p50 %.0f ms, p99 %.0f ms, max %.0f ms over %d%s"
                .formatted(refresh.ms().p50(), refresh.ms().p99(), refresh.ms().max(), releases,
                        timedOut == 0 ? "" : "; %d timed out after %d s".formatted(timedOut, GIVE_UP.toSeconds())));
        return refresh;
    }

    /** A job of the line: a day on the provider, an hour by its user's hint. */
    private static String hinted(String name) {
        return """
                {"name": "%s", "kind": "TRAINING", "instancePreferences": [{"instanceType": "%s", "instanceCount": 1}],
                 "expectedRuntimeSeconds": %d, "local": {"runtimeSeconds": 86400}}"""
                .formatted(name, LINE_TYPE, LINE_HINT_SECONDS);
    }

    /** Waits until every one of the jobs has a forecast (a p50) in the table; their p50s. */
    private static Map<UUID, Instant> forecast(ServiceBench.Run run, List<UUID> jobs) throws Exception {
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while (true) {
            var p50 = new HashMap<UUID, Instant>();
            run.jdbc.query("SELECT job_id, p50 FROM job_estimates WHERE job_id = ANY(?) AND p50 IS NOT NULL",
                    rs -> { p50.put(rs.getObject(1, UUID.class), rs.getTimestamp(2).toInstant()); },
                    (Object) jobs.toArray(UUID[]::new));
            if (p50.size() == jobs.size()) {
                return p50;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the line's jobs were not all estimated in 2 minutes: " + p50.size()
                        + " of " + jobs.size());
            }
            Thread.sleep(20);
        }
    }

    /**
     * Reads the jobs' estimates every {@link #POLL} until each was made from a reading after the release (its
     * {@code estimated_at} not before the released job's {@code ended_at}) and its p50 is 30 minutes earlier than
     * before, or it is past the job's deadline; when, or null after {@link #GIVE_UP}. A job whose estimate lies past
     * its deadline is expected to give up rather than start: its p50 is a sample's start in the tail, which a
     * release need not move, and a new pool of runs can even move it later.
     */
    private static Instant awaitMovedEarlier(ServiceBench.Run run, List<UUID> jobs, Map<UUID, Instant> before,
                                             UUID released, long since) throws Exception {
        var ids = jobs.toArray(UUID[]::new);
        var limits = new java.sql.Timestamp[ids.length];
        for (int i = 0; i < ids.length; i++) {
            limits[i] = java.sql.Timestamp.from(before.get(ids[i]).minus(Duration.ofMinutes(30)));
        }
        while (true) {
            Integer moved = run.jdbc.queryForObject("""
                            SELECT count(*) FROM job_estimates e
                              JOIN unnest(CAST(? AS uuid[]), CAST(? AS timestamptz[])) AS b (job_id, latest)
                                ON b.job_id = e.job_id
                             WHERE e.estimated_at >= date_trunc('milliseconds', (SELECT ended_at FROM jobs WHERE id = ?))
                               AND (e.p50 <= b.latest OR e.past_deadline)""", Integer.class, ids, limits, released);
            if (moved != null && moved == ids.length) {
                return Instant.now();
            }
            if (System.nanoTime() - since > GIVE_UP.toNanos()) {
                ServiceBench.log("  the line's estimates had not all moved in %d s: %d of %d"
                        .formatted(GIVE_UP.toSeconds(), moved, ids.length));
                return null;
            }
            Thread.sleep(POLL.toMillis());
        }
    }

    /**
     * A burst of {@code burst} jobs in batches onto the queue, then at once the chains: with the estimator off, then
     * (another burst onto a queue as long) on.
     */
    record Burst(int pendingBefore, ServiceBench.Batches batches, ServiceBench.WakeUp chain, Load load) {
    }

    record Bursts(Burst off, Burst on) {

        double p99Ratio() {
            return on.chain().serverMs().p99() / off.chain().serverMs().p99();
        }
    }

    /**
     * The burst with estimates off, then the one with them on. Between them the first burst's jobs are stopped, as
     * their team would, and the database vacuumed, so that both chains run on a queue of the same length: the runs
     * before put the second burst onto 130,000 pending against the first's 100,000, and a longer queue is a slower
     * one with estimates or without.
     */
    static Bursts bursts(ServiceBench.Run run) throws Exception {
        estimates(run, false);
        int before = run.names.get();
        Burst off = burst(run, "burst-off-");
        var burstJobs = new ArrayList<String>();
        for (int i = before + 1; i <= run.names.get(); i++) {
            burstJobs.add(ServiceBench.Run.batchName(i));
        }
        run.stop("bench", burstJobs);
        long vacuumFrom = System.nanoTime();
        run.jdbc.execute("VACUUM ANALYZE");
        ServiceBench.log("  vacuumed and analyzed in %.1f s".formatted((System.nanoTime() - vacuumFrom) / 1e9));
        estimates(run, true);
        Burst on = burst(run, "burst-on-");
        return new Bursts(off, on);
    }

    private static Burst burst(ServiceBench.Run run, String prefix) throws Exception {
        int pending = run.pendingCount();
        ServiceBench.log("burst: %d jobs in batches onto %d pending, then %d releases in %d chains at once (%s)"
                .formatted(run.settings.burst(), pending, run.settings.levelReleases(), run.settings.lanes(), prefix));
        ServiceBench.Batches batches = run.batchMany(run.settings.burst());
        Mark from = mark(run);
        ServiceBench.WakeUp chain = run.lanes(run.settings.levelReleases(), prefix);
        Load load = since(run, from);
        ServiceBench.log("  %.0f jobs/s; wake-up p50 %.0f ms, p99 %.0f ms, max %.0f ms; estimator busy %.1f %%, CPU %.1f %%"
                .formatted(batches.jobsPerSecond(), chain.serverMs().p50(), chain.serverMs().p99(),
                        chain.serverMs().max(), 100 * load.busyShare(), 100 * load.cpuShare()));
        return new Burst(pending, batches, chain, load);
    }
}
