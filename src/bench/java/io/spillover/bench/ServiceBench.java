package io.spillover.bench;

import com.sun.management.GcInfo;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.spillover.SpilloverApplication;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The service benchmarks of SPEC §7: the service started in this JVM on its embedded PostgreSQL (a fresh data
 * directory), the local provider on {@code src/bench/service-fleet.yml}, driven over HTTP on localhost with
 * {@link HttpClient} from a pool of client threads.
 * <ol>
 *   <li>submissions that wait ({@code ml.c5.2xlarge} is held by a long job), so only the submission path is
 *       measured: throughput and latency percentiles;</li>
 *   <li>wake-up: a chain of one-second jobs on the one {@code ml.m5.xlarge}; each job's end releases the
 *       instance and wakes the next. Measured on the server's own timestamps: the ended job's {@code endedAt}
 *       to the next job's transition to {@code STARTING}. Beside it, polling retry loops simulated on the same
 *       release times;</li>
 *   <li>the queue filled to {@code pending} jobs; then one instance of {@code ml.c5.xlarge}, which only a few
 *       of them list, is released by stopping the job of another team holding it: time to the waiting job's
 *       {@code STARTING}, and which jobs were evaluated in that cycle (read from the database);</li>
 *   <li>heap the last full collection left in use with that queue, as it reports it, in this JVM (the service's; the
 *       client's share is small).</li>
 * </ol>
 * Issue #32's parts are {@link EstimatesParts}': the floor endpoint beside the submissions, the chains with estimates
 * off and on at each queue length and after bursts, and how soon a release's moved estimates are written.
 */
final class ServiceBench {

    static final String ADMIN_TOKEN = "service-bench-admin-token";
    static final JsonMapper JSON = JsonMapper.builder().build();

    /** What a mode runs. */
    record Settings(int clients, int submissions, int warmup, int warmupRounds, int batchClients, int batchedJobs,
                    int releases, List<Integer> levels, int levelReleases, List<Integer> pollIntervals,
                    int crowdedReleases, int burst, int refreshReleases, int lanes) {

        String describe() {
            return ("%d client threads; %d measured submissions after warm-up rounds of %d submissions and as many "
                    + "floor requests, until the JIT settles (at most %d rounds); %d jobs in batches of %d from %d "
                    + "clients; %d releases in the wake-up chain; then, from an emptied queue, the queue filled in "
                    + "batches to %s pending jobs, with %d releases in %d chains at once (estimates off, then on), %d "
                    + "releases of an offering a line of jobs waits on (to the moved estimates' write) and one "
                    + "release of an offering a job waits on at each, and %d releases of the offering every pending "
                    + "job waits on right after the burst that filled the queue and %d more once it settled; then two "
                    + "bursts of %d jobs, each followed by a chain (estimates off, then on); the floor endpoint beside "
                    + "the submissions, the measured ones and as many floor requests in " + FLOOR_ROUNDS + " rounds "
                    + "of each taken in turn")
                    .formatted(clients, submissions, warmup, warmupRounds, batchedJobs, BATCH, batchClients, releases,
                            levels, levelReleases, lanes, refreshReleases, crowdedReleases, crowdedReleases, burst);
        }

        int pending() {
            return levels.get(levels.size() - 1);
        }
    }

    /**
     * The JIT compilers' time (summed over their threads, as the JVM counts it) over a warm-up round's, under which
     * the JVM counts as settled.
     */
    static final double SETTLED_COMPILATION = 0.05;

    /**
     * One warm-up round: its submissions' and floor requests' rates, and the JIT compilers' time over the round's.
     */
    record WarmUpRound(double submissionsPerSecond, double floorPerSecond, double compilation) {
    }

    /** Jobs per batch submission: the endpoint's most. */
    static final int BATCH = 500;

    record Percentiles(int count, double mean, double p50, double p95, double p99, double max) {

        static Percentiles of(List<Double> values) {
            double[] v = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
            if (v.length == 0) {
                return new Percentiles(0, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
            }
            return new Percentiles(v.length, Arrays.stream(v).average().orElse(Double.NaN), at(v, 0.50), at(v, 0.95),
                    at(v, 0.99), v[v.length - 1]);
        }

        /** Nearest-rank percentile. */
        private static double at(double[] sorted, double q) {
            int rank = (int) Math.ceil(q * sorted.length);
            return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
        }
    }

    record Submissions(int clients, int count, int errors, double seconds, double perSecond, Percentiles latencyMs) {
    }

    /** Rounds in which the submissions and the floor are measured, taken in turn. */
    static final int FLOOR_ROUNDS = 4;

    record Polling(int intervalSeconds, double analyticMeanSeconds, double analyticP99Seconds, Percentiles simulatedSeconds) {
    }

    /**
     * @param slowReleases releases that took more than 100 ms to the next {@code STARTING}
     * @param sweeps       the safety sweeps that ran during the chain: each evaluates every pending job (the
     *                     part 1 queue), and a release that lands in one waits for it
     */
    record WakeUp(int releases, Percentiles serverMs, List<Polling> polling, String pollingMethod, int slowReleases,
                  Sweeps sweeps, Estimations estimations, List<Double> wakeMs) {

        /** Two chains of the same kind as one: their wake-ups pooled (the first's polling figures kept). */
        WakeUp and(WakeUp other) {
            var all = new ArrayList<>(wakeMs);
            all.addAll(other.wakeMs);
            long sweepCount = sweeps.count() + other.sweeps.count();
            long estimationCount = estimations.count() + other.estimations.count();
            return new WakeUp(releases + other.releases, Percentiles.of(all), polling, pollingMethod,
                    slowReleases + other.slowReleases,
                    new Sweeps(sweepCount, sweepCount == 0 ? 0 : (sweeps.count() * sweeps.meanMs()
                            + other.sweeps.count() * other.sweeps.meanMs()) / sweepCount,
                            (sweeps.shareOfTime() + other.sweeps.shareOfTime()) / 2),
                    new Estimations(estimationCount, estimationCount == 0 ? 0 : (estimations.count()
                            * estimations.meanMs() + other.estimations.count() * other.estimations.meanMs())
                            / estimationCount, Math.max(estimations.maxMs(), other.estimations.maxMs()),
                            (estimations.shareOfTime() + other.estimations.shareOfTime()) / 2),
                    all);
        }
    }

    /**
     * Estimations of pending jobs' starts (issues #17, #32) over a stretch of time, from the estimator's
     * {@code spillover.estimates.run} timers (both scopes, full and changes): on a thread and a database pool of its
     * own, so it shares the cores with the scheduler rather than delaying it.
     *
     * @param maxMs the longest in the timer's recent window
     */
    record Estimations(long count, double meanMs, double maxMs, double shareOfTime) {
    }

    /** Sweep cycles over a stretch of time, from the scheduler's {@code spillover.scheduling.cycle} timer. */
    record Sweeps(long count, double meanMs, double shareOfTime) {
    }

    /** Batch submissions: jobs per second over the part, and each batch's latency. */
    record Batches(int clients, int batchSize, int jobs, int errors, double seconds, double jobsPerSecond,
                   Percentiles latencyMs) {
    }

    record Release(int pending, double fillSeconds, double fillPerSecond, int waitersOnFreedOffering,
                   double releaseToStartingMs, double stopRequestToObservedStartingMs, int jobsEvaluated,
                   Map<String, Integer> jobsEvaluatedByTrigger, Map<String, Integer> jobsEvaluatedByTeam,
                   int pendingJobsListingFreedOffering) {
    }

    record Memory(int pending, long heapUsedBeforeQueueBytes, long heapUsedAtQueueBytes, double bytesPerPendingJob,
                  long maxHeapBytes, String rss) {
    }

    /**
     * @param commits the database's commit rate measured in the same run, from one client and from the
     *                bench's client count ({@link CommitRate}), the figures' yardstick
     */
    /**
     * Releases of the offering every pending job waits on (issue 29), one after another: each stops the job running
     * on it, and the first job in line starts. Measured on the server's timestamps: the stopped job's {@code endedAt}
     * to the next job's {@code STARTING}.
     *
     * @param afterBurstSeconds from the end of the burst that filled the queue to the first release
     */
    record Crowded(String when, int pending, double afterBurstSeconds, Percentiles releaseToStartingMs,
                   int slowerThan100Ms) {
    }

    /**
     * The service with this many jobs pending: a wake-up chain, one release of an offering a job waits on, and
     * releases of the offering every job waits on, right after the burst that filled the queue and once it settled.
     */
    record Level(int pending, WakeUp wakeUp, Release release, Crowded crowdedAfterBurst, Crowded crowdedSettled) {
    }

    /** @param slowStatements statements seen running longer than {@value SlowStatements#THRESHOLD_MS} ms, all run long */
    record Result(Settings settings, Submissions submissions, Batches batches, WakeUp wakeUp, List<Level> levels,
                  Memory memory, List<CommitRate.Measured> commits, List<SlowStatements.Seen> slowStatements,
                  EstimatesParts.Floor floor, List<EstimatesParts.AtLevel> estimates, EstimatesParts.Bursts bursts) {

        /** The release at the most jobs pending. */
        Release release() {
            return levels.get(levels.size() - 1).release();
        }

        /** One single-client commit, in milliseconds: the median latency of the one-client loop. */
        double oneCommitMs() {
            return commits.get(0).latencyMs().p50();
        }

        double singleClientCommitsPerSecond() {
            return commits.get(0).perSecond();
        }
    }

    private ServiceBench() {
    }

    static Settings settings(boolean quick) {
        // quick: chains of 10 releases in two lanes at each length and after each burst (four per length, two after
        // the bursts), so that the run stays short; its figures prove the parts run, not the targets
        return quick ? new Settings(16, 2_000, 1_000, 4, 4, 4_000, 50, List.of(1_000, 10_000), 10, List.of(30, 60),
                20, 3_000, 5, 2)
                : new Settings(16, 10_000, 2_000, 60, 4, 20_000, 200, List.of(1_000, 10_000, 100_000), 800,
                        List.of(30, 60), 40, 30_000, 20, 4);
    }

    static Result run(Settings settings) throws Exception {
        Path dataDir = Files.createTempDirectory("spillover-bench-");
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(SpilloverApplication.class).run(
                "--spillover.data-dir=" + dataDir, "--server.port=0", "--spring.main.banner-mode=off",
                "--spillover.bootstrap-admin-token=" + ADMIN_TOKEN,
                "--spillover.local.fleet=file:src/bench/service-fleet.yml",
                "--spillover.local.stop-grace=0s",
                "--spillover.bench.floor-endpoint=true",
                "--logging.level.root=WARN")) {
            int port = ((WebServerApplicationContext) context).getWebServer().getPort();
            var jdbc = new JdbcTemplate(context.getBean(DataSource.class));
            DataSource database = context.getBean(DataSource.class);
            log("commit rate: single-row insert + commit, 1 and %d clients, 5 s each".formatted(settings.clients()));
            var commits = List.of(CommitRate.measure(database, 1, 5), CommitRate.measure(database, settings.clients(), 5));
            commits.forEach(c -> log("  %d client(s): %.0f commits/s, p50 %.2f ms, p99 %.2f ms".formatted(c.clients(),
                    c.perSecond(), c.latencyMs().p50(), c.latencyMs().p99())));
            var bench = new Run(port, settings, jdbc, context.getBean(MeterRegistry.class));
            bench.estimator = context.getBean("startEstimator", org.springframework.context.Lifecycle.class);
            try (var slow = new SlowStatements(database)) {
                Result result = bench.all(commits);
                return new Result(result.settings(), result.submissions(), result.batches(), result.wakeUp(),
                        result.levels(), result.memory(), result.commits(), slow.seen(), result.floor(),
                        result.estimates(), result.bursts());
            }
        }
    }

    /**
     * Submissions and wake-up latency without webhooks, then with {@code hooks} webhooks on the team whose jobs start
     * and end (every event type) pointing at a receiver that accepts connections and never answers, in one run on
     * one service: each of that team's starts and ends is then an outbox event for every hook, and every delivery
     * holds a delivery thread for the whole timeout before it is tried again.
     */
    record WebhookComparison(int hooks, int releases, List<WebhookRound> rounds, String loadAtStart,
                             String loadAtEnd) {
    }

    /** One round: without webhooks, then with them (made for the round, deleted with their deliveries after it). */
    record WebhookRound(Submissions without, WakeUp wakeUpWithout, Submissions with, WakeUp wakeUpWith,
                        long eventsWritten, long deliveriesMade, long attemptsMade, int connectionsHeld) {
    }

    static WebhookComparison webhooks(Settings settings, int hooks, int rounds) throws Exception {
        Path dataDir = Files.createTempDirectory("spillover-bench-");
        try (var silent = new java.net.ServerSocket(0, 1_000, java.net.InetAddress.getLoopbackAddress());
             ConfigurableApplicationContext context = new SpringApplicationBuilder(SpilloverApplication.class).run(
                "--spillover.data-dir=" + dataDir, "--server.port=0", "--spring.main.banner-mode=off",
                "--spillover.bootstrap-admin-token=" + ADMIN_TOKEN,
                "--spillover.local.fleet=file:src/bench/service-fleet.yml",
                "--spillover.local.stop-grace=0s",
                "--spillover.webhooks.allowed-hosts=127.0.0.1",
                "--logging.level.root=WARN")) {
            // the receiver that never answers: it takes every connection and reads nothing, writes nothing
            var held = new java.util.concurrent.CopyOnWriteArrayList<java.net.Socket>();
            Thread acceptor = new Thread(() -> {
                while (!silent.isClosed()) {
                    try {
                        held.add(silent.accept());
                    } catch (IOException closed) {
                        return;
                    }
                }
            }, "silent-receiver");
            acceptor.setDaemon(true);
            acceptor.start();
            String loadAtStart = Machine.load();
            int port = ((WebServerApplicationContext) context).getWebServer().getPort();
            var jdbc = new JdbcTemplate(context.getBean(DataSource.class));
            var bench = new Run(port, settings, jdbc, context.getBean(MeterRegistry.class));
            for (String team : List.of("bench", "relay", "holder")) {
                bench.team(team);
            }
            bench.submit("holder", "hold-c5-2xlarge", "ml.c5.2xlarge", 0);
            bench.awaitStatus("holder", "hold-c5-2xlarge", "RUNNING");
            log("webhooks: warm-up, %d submissions and a chain of 10 releases".formatted(settings.warmup()));
            bench.submitMany(settings.warmup());
            bench.wakeUp(10, "warm-", 1);
            var results = new ArrayList<WebhookRound>();
            for (int round = 1; round <= rounds; round++) {
                log("webhooks, round %d: without webhooks, %d submissions and a chain of %d releases".formatted(round,
                        settings.submissions(), settings.releases()));
                Submissions without = bench.submitMany(settings.submissions());
                WakeUp wakeUpWithout = bench.wakeUp(settings.releases(), "plain-" + round + "-", 1);
                log("  %.0f submissions/s, p99 %.1f ms; wake-up p50 %.0f ms, p99 %.0f ms".formatted(
                        without.perSecond(), without.latencyMs().p99(), wakeUpWithout.serverMs().p50(),
                        wakeUpWithout.serverMs().p99()));
                log("webhooks, round %d: %d webhooks on team relay (every event) to a receiver that never answers"
                        .formatted(round, hooks));
                long eventsBefore = jdbc.queryForObject("SELECT count(*) FROM webhook_events", Long.class);
                for (int i = 0; i < hooks; i++) {
                    Run.expect(bench.send(null, "PUT", "/teams/relay/webhooks/hook-" + i, """
                            {"url": "http://127.0.0.1:%d/hook-%d", "events": ["job.started", "job.fell-back",
                             "job.completed", "job.failed", "job.stopped", "job.pending-timeout"]}"""
                            .formatted(silent.getLocalPort(), i)), 201);
                }
                // the chain first, so that the submissions after it are measured with the dispatcher busy
                WakeUp wakeUpWith = bench.wakeUp(settings.releases(), "hooked-" + round + "-", 1);
                Submissions with = bench.submitMany(settings.submissions());
                log("  %.0f submissions/s, p99 %.1f ms; wake-up p50 %.0f ms, p99 %.0f ms".formatted(with.perSecond(),
                        with.latencyMs().p99(), wakeUpWith.serverMs().p50(), wakeUpWith.serverMs().p99()));
                long events = jdbc.queryForObject("SELECT count(*) FROM webhook_events", Long.class) - eventsBefore;
                long deliveries = jdbc.queryForObject("SELECT count(*) FROM webhook_deliveries", Long.class);
                long attempts = jdbc.queryForObject("SELECT count(*) FROM webhook_attempts", Long.class);
                log("  %d events, %d deliveries, %d attempts, %d connections held by the receiver".formatted(events,
                        deliveries, attempts, held.size()));
                results.add(new WebhookRound(without, wakeUpWithout, with, wakeUpWith, events, deliveries, attempts,
                        held.size()));
                for (int i = 0; i < hooks; i++) {
                    Run.expect(bench.send(null, "DELETE", "/teams/relay/webhooks/hook-" + i, null), 204);
                }
            }
            return new WebhookComparison(hooks, settings.releases(), results, loadAtStart, Machine.load());
        }
    }

    /** One run against one started service. */
    static final class Run {

        final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
        final String base;
        final Settings settings;
        final JdbcTemplate jdbc;
        final MeterRegistry registry;
        final Map<String, String> tokens = new LinkedHashMap<>();
        final AtomicInteger names = new AtomicInteger();
        /** The service's estimator, to turn estimates off and on ({@link EstimatesParts}); null to leave it be. */
        org.springframework.context.Lifecycle estimator;

        Run(int port, Settings settings, JdbcTemplate jdbc, MeterRegistry registry) {
            this.registry = registry;
            this.base = "http://localhost:" + port + "/api/v1";
            this.settings = settings;
            this.jdbc = jdbc;
        }

        Result all(List<CommitRate.Measured> commits) throws Exception {
            for (String team : List.of("bench", "relay", "holder", EstimatesParts.LINE_TEAM)) {
                team(team);
            }
            long heapBefore = heapAfterGc();
            // Everything in parts 1 and 3 waits on ml.c5.2xlarge, held by this job.
            submit("holder", "hold-c5-2xlarge", "ml.c5.2xlarge", 0);
            submit("holder", "hold-c5-xlarge", "ml.c5.xlarge", 0);
            awaitStatus("holder", "hold-c5-2xlarge", "RUNNING");
            awaitStatus("holder", "hold-c5-xlarge", "RUNNING");

            log("part 1: %d submissions from %d clients, after the JIT settles".formatted(settings.submissions(),
                    settings.clients()));
            jdbc.execute(FloorEndpoint.TABLE);
            List<WarmUpRound> warmUp = warmUp();
            Submissions[] taken = inTurn(settings.submissions(), FLOOR_ROUNDS);
            Submissions submissions = taken[0];
            log("  %.0f submissions/s, p50 %.1f ms, p99 %.1f ms".formatted(submissions.perSecond(),
                    submissions.latencyMs().p50(), submissions.latencyMs().p99()));
            EstimatesParts.Floor floor = EstimatesParts.floor(taken[1], submissions, warmUp);

            log("part 1b: %d jobs in batches of %d from %d clients".formatted(settings.batchedJobs(), BATCH,
                    settings.batchClients()));
            Batches batches = batchMany(settings.batchedJobs());
            log("  %.0f jobs/s, batch p50 %.0f ms, p99 %.0f ms".formatted(batches.jobsPerSecond(),
                    batches.latencyMs().p50(), batches.latencyMs().p99()));

            log("part 2: wake-up chain of %d releases".formatted(settings.releases()));
            WakeUp wakeUp = wakeUp();
            log("  server p50 %.0f ms, p99 %.0f ms".formatted(wakeUp.serverMs().p50(), wakeUp.serverMs().p99()));

            log("part 3: emptying the queue, then filling it to %s pending".formatted(settings.levels()));
            stopPending("bench");
            var levels = new ArrayList<Level>();
            var estimates = new ArrayList<EstimatesParts.AtLevel>();
            Memory memory = null;
            String holderTeam = "holder";
            String holderJob = "hold-c5-xlarge";
            for (int level : settings.levels()) {
                Batches filled = batchMany(Math.max(0, level - pendingCount() - 1));
                long burstEnded = System.nanoTime();
                Crowded afterBurst = crowded("right after the burst", burstEnded);
                String waiter = "waiter-" + level;
                submit("bench", waiter, "ml.c5.xlarge", 0);
                // The scheduler may still be working through the fill's SUBMITTED wake-ups (the full run of
                // 2026-12-02 released into such a backlog and measured it): measure once the waiter is evaluated.
                long settleFrom = System.nanoTime();
                awaitEvaluated("bench", waiter, Duration.ofMinutes(10));
                int pending = pendingCount();
                log("  %d pending; the scheduler caught up %.1f s after the last submission".formatted(pending,
                        (System.nanoTime() - settleFrom) / 1e9));
                if (level == settings.pending()) {
                    Thread.sleep(2_000);
                    long heapAtQueue = heapAfterGc();
                    log("  heap after a full collection %.1f MB (%.1f MB before the queue); %.1f MB in use a moment later"
                            .formatted(heapAtQueue / 1e6, heapBefore / 1e6,
                                    ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() / 1e6));
                    memory = new Memory(pending, heapBefore, heapAtQueue, (heapAtQueue - heapBefore) / (double) pending,
                            Runtime.getRuntime().maxMemory(), rss());
                }
                EstimatesParts.Interleaved chains = EstimatesParts.interleaved(this, level);
                WakeUp chain = chains.on();
                EstimatesParts.Load load = chains.load();
                log("  wake-up p50 %.0f ms, p99 %.0f ms; %d sweeps of %.0f ms".formatted(chain.serverMs().p50(),
                        chain.serverMs().p99(), chain.sweeps().count(), chain.sweeps().meanMs()));
                EstimatesParts.Refresh refresh = EstimatesParts.refresh(this, level);
                Release release = release(pending, filled, holderTeam, holderJob, waiter);
                Crowded settled = crowded("settled", burstEnded);
                levels.add(new Level(pending, chain, release, afterBurst, settled));
                estimates.add(new EstimatesParts.AtLevel(pending, chains.off(), chain, load, refresh,
                        chains.offHalves()));
                holderTeam = "bench";
                holderJob = waiter; // it holds ml.c5.xlarge now, for the next level's release
            }
            EstimatesParts.Bursts bursts = EstimatesParts.bursts(this);
            return new Result(settings, submissions, batches, wakeUp, levels, memory, commits, List.of(), floor,
                    estimates, bursts);
        }

        /** Who runs on ml.c5.2xlarge, the offering every job of parts 1 and 3 waits on: team and job name. */
        String[] crowdedRunner = {"holder", "hold-c5-2xlarge"};

        /**
         * {@link Settings#crowdedReleases} releases of ml.c5.2xlarge, one after the other: stop the job on it (as its
         * team would), read its end and the start of the job that takes its place from the database.
         */
        Crowded crowded(String when, long burstEnded) throws Exception {
            double afterBurst = (System.nanoTime() - burstEnded) / 1e9;
            int pending = pendingCount();
            var delays = new ArrayList<Double>();
            for (int i = 0; i < settings.crowdedReleases(); i++) {
                String team = crowdedRunner[0];
                String name = crowdedRunner[1];
                expect(send(team, "POST", "/teams/" + team + "/jobs/" + name + "/stop", "{}"), 200);
                long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
                Instant ended = null;
                Map<String, Object> next = null;
                while (ended == null || next == null) {
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException("no job started on ml.c5.2xlarge within 60 s of stopping " + name);
                    }
                    Thread.sleep(5);
                    if (ended == null) {
                        ended = jdbc.query("SELECT ended_at FROM jobs WHERE team = ? AND name = ? AND status = 'STOPPED'",
                                rs -> rs.next() ? rs.getTimestamp(1).toInstant() : null, team, name);
                    }
                    next = jdbc.query("""
                            SELECT j.team, j.name, t.at FROM jobs j JOIN job_transitions t ON t.job_id = j.id
                             WHERE j.selected_type = 'ml.c5.2xlarge' AND j.status IN ('STARTING', 'RUNNING')
                               AND t.to_status = 'STARTING' AND t.attempt = j.attempt AND NOT (j.team = ? AND j.name = ?)
                             ORDER BY t.at DESC LIMIT 1""", rs -> rs.next() ? Map.<String, Object>of("team",
                            rs.getString(1), "name", rs.getString(2), "at", rs.getTimestamp(3).toInstant()) : null,
                            team, name);
                }
                delays.add(Duration.between(ended, (Instant) next.get("at")).toNanos() / 1e6);
                crowdedRunner = new String[] {(String) next.get("team"), (String) next.get("name")};
            }
            Crowded crowded = new Crowded(when, pending, afterBurst, Percentiles.of(delays),
                    (int) delays.stream().filter(ms -> ms > 100).count());
            log("  %d releases of the crowded offering %s (%.1f s after the burst), %d pending: p50 %.0f ms, p99 %.0f ms, max %.0f ms"
                    .formatted(delays.size(), when, afterBurst, pending, crowded.releaseToStartingMs().p50(),
                            crowded.releaseToStartingMs().p99(), crowded.releaseToStartingMs().max()));
            return crowded;
        }

        int pendingCount() {
            return jdbc.queryForObject("SELECT count(*) FROM jobs WHERE status = 'PENDING'", Integer.class);
        }

        /** Stops every pending job of the team through the API, from the client pool. */
        void stopPending(String team) throws Exception {
            stop(team, jdbc.queryForList("SELECT name FROM jobs WHERE team = ? AND status = 'PENDING'", String.class,
                    team));
        }

        /** Stops the team's jobs through the API, from the client pool. */
        void stop(String team, List<String> names) throws Exception {
            ExecutorService pool = Executors.newFixedThreadPool(settings.clients());
            List<Future<Response>> stops = new ArrayList<>();
            for (String name : names) {
                stops.add(pool.submit(() -> send(team, "POST", "/teams/" + team + "/jobs/" + name + "/stop", "{}")));
            }
            for (Future<Response> stop : stops) {
                expect(stop.get(), 200);
            }
            pool.shutdown();
            log("  stopped %d jobs of %s; %d pending".formatted(names.size(), team, pendingCount()));
        }

        /** Stops the job holding ml.c5.xlarge; the waiter on it starts. What that took, and what the cycle read. */
        Release release(int pending, Batches filled, String holderTeam, String holderJob, String waiterName)
                throws Exception {
            long stopAt = System.nanoTime();
            Response stopped = send(holderTeam, "POST", "/teams/" + holderTeam + "/jobs/" + holderJob + "/stop", "{}");
            if (stopped.status() >= 300) {
                throw new IllegalStateException("stop answered " + stopped.status() + ": " + stopped.body());
            }
            JsonNode waiter = awaitStatus("bench", waiterName, "STARTING", "RUNNING");
            double observedMs = (System.nanoTime() - stopAt) / 1e6;
            JsonNode holder = awaitStatus(holderTeam, holderJob, "STOPPED");
            Instant endedAt = Instant.parse(holder.get("endedAt").asString());
            Instant starting = transition(waiter, "STARTING");
            Thread.sleep(3_000); // the cycle's evaluations are written by then
            Timestamp since = Timestamp.from(endedAt.minusMillis(1));
            Timestamp until = Timestamp.from(starting.plusSeconds(2));
            String evaluated = """
                    SELECT e.job_id, e.team, e.trigger FROM job_evaluations e WHERE e.at >= ? AND e.at <= ?
                    UNION
                    SELECT e.job_id, e.team, e.trigger FROM evaluation_repeats r JOIN job_evaluations e
                      ON e.id = r.evaluation_id WHERE r.last_at >= ? AND r.last_at <= ?""";
            var byTrigger = new LinkedHashMap<String, Integer>();
            var byTeam = new LinkedHashMap<String, Integer>();
            var jobs = new java.util.HashSet<String>();
            jdbc.query(evaluated, rs -> {
                jobs.add(rs.getString(1));
                byTeam.merge(rs.getString(2), 1, Integer::sum);
                byTrigger.merge(rs.getString(3), 1, Integer::sum);
            }, since, until, since, until);
            Release release = new Release(pending, filled.seconds(), filled.jobsPerSecond(), 1,
                    Duration.between(endedAt, starting).toNanos() / 1e6, observedMs, jobs.size(), byTrigger, byTeam, 1);
            log("  release → STARTING %.0f ms; %d jobs evaluated %s".formatted(release.releaseToStartingMs(),
                    jobs.size(), byTrigger));
            return release;
        }

        /** A team with room for everything the bench submits, and a MEMBER token for it. */
        void team(String team) throws Exception {
            expect(send(null, "PUT", "/admin/teams/" + team,
                    "{\"displayName\": \"" + team + "\", \"weight\": 1, \"queueing\": \"BEST_EFFORT_FIFO\"}"), 201);
            expect(send(null, "PUT", "/admin/teams/" + team + "/quotas", """
                    {"instanceLimits": {"ml.c5.2xlarge": 1000, "ml.m5.xlarge": 1000, "ml.c5.xlarge": 1000,
                                        "ml.m5.2xlarge": 1000, "ml.m5.4xlarge": 1000, "ml.r5.xlarge": 1000,
                                        "ml.r5.2xlarge": 1000},
                     "maxAccelerators": 1000, "maxConcurrentJobs": 1000}"""), 200);
            Response token = expect(send(null, "POST", "/teams/" + team + "/tokens",
                    "{\"name\": \"bench\", \"role\": \"MEMBER\"}"), 201);
            tokens.put(team, JSON.readTree(token.body()).get("secret").asString());
        }

        /** {@code count} jobs of team bench waiting on ml.c5.2xlarge, from the client pool; their latencies. */
        Submissions submitMany(int count) throws Exception {
            return postMany(count, "/teams/bench/jobs");
        }

        /**
         * {@code count} submissions and as many floor requests, in {@code rounds} rounds of each taken in turn (submissions,
         * floor, floor, submissions, submissions, floor, ...), so that both are measured across the same stretch of the
         * JVM's warming and the database's growth; each side's figures over all its rounds.
         *
         * @return the submissions', then the floor's
         */
        Submissions[] inTurn(int count, int rounds) throws Exception {
            String[] paths = {"/teams/bench/jobs", EstimatesParts.FLOOR_PATH};
            var latencies = List.of(new ArrayList<Double>(), new ArrayList<Double>());
            double[] seconds = new double[2];
            int[] errors = new int[2];
            for (int round = 0; round < 2 * rounds; round++) {
                int side = (round + 1) / 2 % 2; // 0, 1, 1, 0, 0, 1, 1, 0, ...
                Round taken = postRound(count / rounds + (round / 2 < count % rounds ? 1 : 0), paths[side]);
                latencies.get(side).addAll(taken.latenciesMs());
                seconds[side] += taken.seconds();
                errors[side] += taken.errors();
            }
            var sides = new Submissions[2];
            for (int side = 0; side < 2; side++) {
                sides[side] = new Submissions(settings.clients(), count, errors[side], seconds[side],
                        count / seconds[side], Percentiles.of(latencies.get(side)));
            }
            return sides;
        }

        /** One round of requests: each one's latency, the round's wall time, the answers other than {@code 201}. */
        record Round(List<Double> latenciesMs, double seconds, int errors) {
        }

        /**
         * Rounds of {@link Settings#warmup} submissions and as many floor requests until the JIT compilers settle: until
         * they compiled for less than {@link #SETTLED_COMPILATION} of a round's time, or {@link Settings#warmupRounds}
         * rounds. A submission runs far more code than the floor's one {@code INSERT}, so it is compiled later (in a
         * JVM of its own, on 2026-12-06, the submissions' rate rose by half over the first 50,000 requests and the
         * floor's by a fifth), and in this JVM, with the clients' code to compile too, the one C2 thread took 24
         * rounds of full mode to work through its queue. The measured rounds so meet the service as a client does
         * most of its life; each warm-up round's rates are kept, so the cold ratios are reported too.
         */
        List<WarmUpRound> warmUp() throws Exception {
            var compilation = ManagementFactory.getCompilationMXBean();
            var rounds = new ArrayList<WarmUpRound>();
            for (int round = 1; round <= settings.warmupRounds(); round++) {
                long compiledMs = compilation.getTotalCompilationTime();
                long start = System.nanoTime();
                Submissions submissions = submitMany(settings.warmup());
                Submissions floor = postMany(settings.warmup(), EstimatesParts.FLOOR_PATH);
                double share = (compilation.getTotalCompilationTime() - compiledMs) / ((System.nanoTime() - start) / 1e6);
                var taken = new WarmUpRound(submissions.perSecond(), floor.perSecond(), share);
                rounds.add(taken);
                log("  warm-up round %d: %.0f submissions/s, the floor %.0f/s (%.2f x); the JIT compiled %.1f %% of the round"
                        .formatted(round, taken.submissionsPerSecond(), taken.floorPerSecond(),
                                taken.submissionsPerSecond() / taken.floorPerSecond(), 100 * share));
                if (share < SETTLED_COMPILATION) {
                    break;
                }
            }
            return rounds;
        }

        /** {@code count} submissions' bodies posted to the path (of team bench) from the client pool; their latencies. */
        Submissions postMany(int count, String path) throws Exception {
            Round round = postRound(count, path);
            return new Submissions(settings.clients(), count, round.errors(), round.seconds(), count / round.seconds(),
                    Percentiles.of(round.latenciesMs()));
        }

        private Round postRound(int count, String path) throws Exception {
            ExecutorService pool = Executors.newFixedThreadPool(settings.clients());
            var next = new AtomicInteger();
            var errors = new AtomicInteger();
            long start = System.nanoTime();
            List<Future<List<Double>>> futures = new ArrayList<>();
            for (int c = 0; c < settings.clients(); c++) {
                futures.add(pool.submit(() -> {
                    var latencies = new ArrayList<Double>();
                    while (next.getAndIncrement() < count) {
                        String body = body("sub-" + names.incrementAndGet(), "ml.c5.2xlarge", 0);
                        long t = System.nanoTime();
                        Response r = send("bench", "POST", path, body);
                        latencies.add((System.nanoTime() - t) / 1e6);
                        if (r.status() != 201) {
                            if (errors.incrementAndGet() <= 3) {
                                System.err.println(path + " answered " + r.status() + ": " + r.body());
                            }
                        }
                    }
                    return latencies;
                }));
            }
            var all = new ArrayList<Double>();
            for (Future<List<Double>> f : futures) {
                all.addAll(f.get());
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            pool.shutdown();
            return new Round(all, seconds, errors.get());
        }

        /** {@code count} jobs of team bench waiting on ml.c5.2xlarge, in batches of {@link #BATCH}; the batches' latencies. */
        /** The name of the {@code i}th job submitted in batches ({@link #names} counts them). */
        static String batchName(int i) {
            return "bat-" + i;
        }

        Batches batchMany(int count) throws Exception {
            ExecutorService pool = Executors.newFixedThreadPool(settings.batchClients());
            var next = new AtomicInteger();
            var errors = new AtomicInteger();
            long start = System.nanoTime();
            List<Future<List<Double>>> futures = new ArrayList<>();
            for (int c = 0; c < settings.batchClients(); c++) {
                futures.add(pool.submit(() -> {
                    var latencies = new ArrayList<Double>();
                    int from;
                    while ((from = next.getAndAdd(BATCH)) < count) {
                        var items = new ArrayList<String>();
                        for (int i = from; i < Math.min(count, from + BATCH); i++) {
                            items.add(body(batchName(names.incrementAndGet()), "ml.c5.2xlarge", 0));
                        }
                        long t = System.nanoTime();
                        Response r = send("bench", "POST", "/teams/bench/jobs:batch",
                                "{\"jobs\": [" + String.join(",", items) + "]}");
                        latencies.add((System.nanoTime() - t) / 1e6);
                        if (r.status() != 201 && errors.incrementAndGet() <= 3) {
                            System.err.println("batch answered " + r.status() + ": " + r.body());
                        }
                    }
                    return latencies;
                }));
            }
            var all = new ArrayList<Double>();
            for (Future<List<Double>> f : futures) {
                all.addAll(f.get());
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            pool.shutdown();
            return new Batches(settings.batchClients(), BATCH, count, errors.get(), seconds, count / seconds,
                    Percentiles.of(all));
        }

        /**
         * Releases + 1 one-second jobs on the one ml.m5.xlarge, submitted in order: each one's end releases the
         * instance and wakes the next. Each start after the first is paired with the latest end before it.
         */
        WakeUp wakeUp() throws Exception {
            return wakeUp(settings.releases(), "chain-", 1);
        }

        /**
         * Issue #32's chains: {@code releases} wake-ups on {@link #LANES}, {@link Settings#lanes} chains at once, one
         * on each lane's one instance, {@code releases / lanes} each. A chain's p99 then falls on tens of wake-ups
         * instead of its second or third slowest, as it did with one chain of 200 (two chains with the same settings
         * differed by 1.27 x, more than the target's 1.2 x).
         */
        WakeUp lanes(int releases, String prefix) throws Exception {
            return wakeUp(releases, prefix, settings.lanes());
        }

        /** The one-instance offerings of the chains, in the order their lanes are taken. */
        static final List<String> LANES = List.of("ml.m5.xlarge", "ml.m5.4xlarge", "ml.r5.xlarge", "ml.r5.2xlarge");

        /**
         * {@code lanes} chains at once, each of {@code releases / lanes} + 1 one-second jobs on one lane's single
         * instance, submitted in order: each job's end releases the instance and wakes the next on its lane. Each
         * start after a lane's first is paired with the latest end before it on that lane.
         */
        WakeUp wakeUp(int releases, String prefix, int lanes) throws Exception {
            Timer sweepTimer = registry.get("spillover.scheduling.cycle").tag("scope", "sweep").timer();
            var estimationTimers = registry.get("spillover.estimates.run").timers();
            long estimationsBefore = estimationTimers.stream().mapToLong(Timer::count).sum();
            double estimationMsBefore = estimationTimers.stream()
                    .mapToDouble(t -> t.totalTime(TimeUnit.MILLISECONDS)).sum();
            long sweepsBefore = sweepTimer.count();
            double sweepMsBefore = sweepTimer.totalTime(TimeUnit.MILLISECONDS);
            long chainFrom = System.nanoTime();
            int n = Math.max(1, releases / lanes) + 1;
            String[] prefixes = new String[lanes];
            for (int lane = 0; lane < lanes; lane++) {
                prefixes[lane] = lanes == 1 ? prefix : prefix + lane + "-";
            }
            for (int i = 0; i < n; i++) {
                for (int lane = 0; lane < lanes; lane++) {
                    submit("relay", prefixes[lane] + i, LANES.get(lane), 1);
                }
            }
            var ends = new ArrayList<List<Instant>>();
            var starts = new ArrayList<List<Instant>>();
            for (int lane = 0; lane < lanes; lane++) {
                var laneEnds = new ArrayList<Instant>();
                var laneStarts = new ArrayList<Instant>();
                for (int i = 0; i < n; i++) {
                    JsonNode job = awaitStatus("relay", prefixes[lane] + i, Duration.ofSeconds(30L + 5L * n),
                            "COMPLETED", "FAILED", "STOPPED");
                    laneEnds.add(Instant.parse(job.get("endedAt").asString()));
                    laneStarts.add(transition(job, "STARTING"));
                }
                ends.add(laneEnds);
                starts.add(laneStarts);
            }
            double chainMs = (System.nanoTime() - chainFrom) / 1e6;
            long sweeps = sweepTimer.count() - sweepsBefore;
            double sweepMs = sweepTimer.totalTime(TimeUnit.MILLISECONDS) - sweepMsBefore;
            var sweepStats = new Sweeps(sweeps, sweeps == 0 ? 0 : sweepMs / sweeps, sweepMs / chainMs);
            long estimations = estimationTimers.stream().mapToLong(Timer::count).sum() - estimationsBefore;
            double estimationMs = estimationTimers.stream().mapToDouble(t -> t.totalTime(TimeUnit.MILLISECONDS)).sum()
                    - estimationMsBefore;
            var estimationStats = new Estimations(estimations, estimations == 0 ? 0 : estimationMs / estimations,
                    estimationTimers.stream().mapToDouble(t -> t.max(TimeUnit.MILLISECONDS)).max().orElse(0),
                    estimationMs / chainMs);
            var wakes = new ArrayList<Double>();
            var released = new ArrayList<Instant>();
            for (int lane = 0; lane < lanes; lane++) {
                List<Instant> laneEnds = ends.get(lane);
                for (Instant start : starts.get(lane)) {
                    laneEnds.stream().filter(e -> !e.isAfter(start)).max(Comparator.naturalOrder()).ifPresent(end -> {
                        wakes.add(Duration.between(end, start).toNanos() / 1e6);
                        released.add(end);
                    });
                }
            }
            released.sort(Comparator.naturalOrder());
            var polling = new ArrayList<Polling>();
            for (int interval : settings.pollIntervals()) {
                polling.add(new Polling(interval, interval / 2.0, 0.99 * interval, simulatePolling(released, interval)));
            }
            int slow = (int) wakes.stream().filter(ms -> ms > 100).count();
            return new WakeUp(wakes.size(), Percentiles.of(wakes), polling,
                    "analytic (uniform over the interval: mean interval/2, p99 0.99 x interval) and simulated: for each "
                            + "measured release time, 1,000 retry loops with random phases (seed 7); delay = release to "
                            + "the first retry at or after it", slow, sweepStats, estimationStats, List.copyOf(wakes));
        }

        static Percentiles simulatePolling(List<Instant> releases, int intervalSeconds) {
            var random = new Random(7);
            var delays = new ArrayList<Double>();
            long period = intervalSeconds * 1_000_000L;
            for (Instant release : releases) {
                long micros = release.getEpochSecond() * 1_000_000L + release.getNano() / 1_000;
                for (int k = 0; k < 1_000; k++) {
                    long phase = (long) (random.nextDouble() * period);
                    long delay = Math.floorMod(phase - micros, period);
                    delays.add(delay / 1e6);
                }
            }
            return Percentiles.of(delays);
        }

        void submit(String team, String name, String type, int runtimeSeconds) throws Exception {
            expect(send(team, "POST", "/teams/" + team + "/jobs", body(name, type, runtimeSeconds)), 201);
        }

        /**
         * A job on one instance of one (CPU) type, pending up to the default 24 h (a maximum pending time may be set
         * only on accelerated types); runtime 0 means a day, so that it ends only when stopped.
         */
        static String body(String name, String type, int runtimeSeconds) {
            return """
                    {"name": "%s", "kind": "TRAINING", "instancePreferences": [{"instanceType": "%s", "instanceCount": 1}],
                     "local": {"runtimeSeconds": %d}}"""
                    .formatted(name, type, runtimeSeconds == 0 ? 86_400 : runtimeSeconds);
        }

        JsonNode awaitStatus(String team, String job, String... statuses) throws Exception {
            return awaitStatus(team, job, Duration.ofSeconds(60), statuses);
        }

        JsonNode awaitStatus(String team, String job, Duration within, String... statuses) throws Exception {
            long deadline = System.nanoTime() + within.toNanos();
            while (true) {
                Response r = send(team, "GET", "/teams/" + team + "/jobs/" + job, null);
                JsonNode node = JSON.readTree(r.body());
                if (r.status() == 200 && Arrays.asList(statuses).contains(node.get("status").asString())) {
                    return node;
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(job + " not " + Arrays.toString(statuses) + " in time: " + r.body());
                }
                Thread.sleep(10);
            }
        }

        void awaitEvaluated(String team, String job, Duration within) throws Exception {
            long deadline = System.nanoTime() + within.toNanos();
            while (JSON.readTree(send(team, "GET", "/teams/" + team + "/jobs/" + job + "/evaluations", null).body())
                    .isEmpty()) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(job + " not evaluated within " + within);
                }
                Thread.sleep(50);
            }
        }

        static Instant transition(JsonNode job, String to) {
            for (JsonNode t : job.get("transitions")) {
                if (to.equals(t.get("to").asString())) {
                    return Instant.parse(t.get("at").asString());
                }
            }
            throw new IllegalStateException("no transition to " + to + " in " + job);
        }

        record Response(int status, String body) {
        }

        Response send(String team, String method, String path, String body) throws IOException, InterruptedException {
            var request = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(60))
                    .header("Authorization", "Bearer " + (team == null ? ADMIN_TOKEN : tokens.get(team)))
                    .header("Content-Type", "application/json")
                    .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
                    .build();
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            return new Response(response.statusCode(), response.body());
        }

        static Response expect(Response r, int status) {
            if (r.status() != status) {
                throw new IllegalStateException("expected " + status + ", got " + r.status() + ": " + r.body());
            }
            return r;
        }
    }

    /**
     * Heap the last full collection left in use, as that collection reports it (requested twice; the JVM may take it
     * as a hint). Not the heap's use read 200 ms later, as before: that counts whatever was allocated meanwhile, and
     * the same queue of 100,000 read 69 MB in one run and 173 MB in the next.
     */
    static long heapAfterGc() throws InterruptedException {
        for (int i = 0; i < 2; i++) {
            System.gc();
            Thread.sleep(200);
        }
        GcInfo last = null;
        for (var collector : ManagementFactory.getPlatformMXBeans(com.sun.management.GarbageCollectorMXBean.class)) {
            GcInfo info = collector.getLastGcInfo();
            if (info != null && (last == null || info.getEndTime() > last.getEndTime())) {
                last = info;
            }
        }
        if (last == null) {
            return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        }
        Map<String, MemoryUsage> after = last.getMemoryUsageAfterGc();
        return ManagementFactory.getMemoryPoolMXBeans().stream().filter(pool -> pool.getType() == MemoryType.HEAP)
                .map(pool -> after.get(pool.getName())).filter(Objects::nonNull).mapToLong(MemoryUsage::getUsed).sum();
    }

    /** The JVM's resident set (VmRSS of /proc/self/status), as the kernel gives it. */
    static String rss() {
        try {
            return Files.readAllLines(Path.of("/proc/self/status")).stream().filter(l -> l.startsWith("VmRSS:"))
                    .map(l -> l.substring(6).strip()).findFirst().orElse("unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }

    static void log(String line) {
        System.out.println("[service] " + line);
    }
}
