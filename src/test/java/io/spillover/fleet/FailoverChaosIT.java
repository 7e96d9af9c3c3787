package io.spillover.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import io.spillover.fleet.Evidence.Takeover;
import io.spillover.providers.sagemaker.FakeSageMaker;
import io.spillover.support.Api;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.util.FileSystemUtils;
import tools.jackson.databind.json.JsonMapper;

/**
 * The chaos test of replicas: two Spillover instances, each the packaged jar in a JVM of its own, on one
 * PostgreSQL and one (fake) SageMaker that outlives them. A steady stream of jobs goes to both instances'
 * APIs against a scarce fleet while the leader (the holder of the scheduler lock, per {@code pg_locks}) is
 * killed with SIGKILL four times: mid-stream with submissions in flight to it; right after it created a
 * SageMaker job and before it heard the answer; as it was about to create one for a placement it had
 * committed; and at a moment when jobs are STARTING. After each kill the survivor must take the lock within
 * 10 s, and a fresh instance replaces the dead one as standby. When the queue has drained, {@link Invariants}
 * checks the database's audit log and the provider's record, and no instance may have logged an error.
 *
 * <p>The long mode ({@code -Dspillover.chaos.kills=20} or more) goes on after those four with kills of a kind
 * and after a pause drawn from a seed, restarts PostgreSQL (stopped and started on the same port and data
 * directory, which this test's own {@link RestartablePostgres} allows), later keeps it stopped for a while so
 * every connection is refused, and in between has SageMaker throttle calls and drop answers. Both modes write
 * the counts, the invariants' tally (lost, doubled, overbooked) and every takeover time to
 * {@code target/chaos/summary.json}.
 *
 * <p>The instances run with the default 60 s safety sweep: a job submitted through the standby reaches the
 * leader by the standby's announcement (LISTEN/NOTIFY), and whatever a killed leader left half done is
 * picked up by its successor's takeover sweep, not by a timer.
 */
class FailoverChaosIT {

    static final String ADMIN = "chaos-bootstrap-admin-token";
    static final Path LOGS = Path.of("target", "chaos");
    static final String PLAN = "chaos-h100";
    static final String PLAN_ARN = "arn:aws:sagemaker:us-east-1:111122223333:training-plan/" + PLAN;
    /** The fleet is scarce: 2 x p4d and 3 x g6e on demand, and a plan of 2 x p5. */
    static final Map<String, Integer> ON_DEMAND = Map.of("ml.p4d.24xlarge", 2, "ml.g6e.48xlarge", 3);
    static final int PLAN_INSTANCES = 2;
    /** Team limits that bind now and then; vision may also run only two jobs at once. */
    static final List<JobStream.Team> TEAMS = List.of(
            new JobStream.Team("vision", Map.of("ml.p4d.24xlarge", 2, "ml.g6e.48xlarge", 3, "ml.p5.48xlarge", 2), true),
            new JobStream.Team("nlp", Map.of("ml.p4d.24xlarge", 1, "ml.g6e.48xlarge", 2), false),
            new JobStream.Team("speech", Map.of("ml.p4d.24xlarge", 2, "ml.g6e.48xlarge", 1, "ml.p5.48xlarge", 1), true));
    static final Duration TAKEOVER_WAIT = Duration.ofSeconds(30);
    /**
     * How many leaders to kill: 4 in {@code ./mvnw verify} (the quick mode); with more, the long mode:
     * {@code -Dspillover.chaos.kills=20} (docs/operations.md, "Proof: chaos").
     */
    static final int KILLS = Integer.getInteger("spillover.chaos.kills", 4);
    static final boolean LONG = KILLS > 4;
    /** The long mode's draws come from this seed ({@code -Dspillover.chaos.seed} to vary it). */
    static final long SEED = Long.getLong("spillover.chaos.seed", 20261204L);
    /** How long the long mode keeps PostgreSQL stopped, refusing connections. */
    static final Duration REFUSED = Duration.ofSeconds(Long.getLong("spillover.chaos.refused-seconds", 15));
    /** The target for a takeover after a SIGKILL; the invariants fail only above {@link Invariants#TAKEOVER_LIMIT}. */
    static final Duration TAKEOVER_TARGET = Duration.ofSeconds(5);

    private final FakeSageMaker sageMaker = new FakeSageMaker();
    private final HikariDataSource dataSource = new HikariDataSource();
    private final List<Takeover> takeovers = new ArrayList<>();
    private final List<String> log = new ArrayList<>();
    private final Map<String, Moment> launchedByTheDying = new LinkedHashMap<>();
    /** Seeded: the long mode's kinds of kill, the pauses before them and the provider's faults. */
    private final Random random = new Random(SEED);
    private RestartablePostgres postgres;
    private final List<Duration> recoveries = new ArrayList<>();
    private JdbcClient database;
    private LeaderLock lock;
    private Replicas replicas;
    private CompletableFuture<SpilloverProcess> replacement;
    private Instant began;

    @BeforeEach
    void startTheWorldAroundSpillover() throws IOException {
        FileSystemUtils.deleteRecursively(LOGS);
        Files.createDirectories(LOGS);
        began = Instant.now();
        sageMaker.autoPlay(Duration.ofMillis(500), Duration.ofSeconds(2));
        sageMaker.plan(PLAN_ARN, "Active", PLAN_INSTANCES, PLAN_INSTANCES, Instant.parse("2020-01-01T00:00:00Z"),
                Instant.parse("2099-01-01T00:00:00Z"));
        postgres = new RestartablePostgres(LOGS.resolve("pgdata"));
        String url = postgres.jdbcUrl();
        dataSource.setJdbcUrl(url);
        dataSource.setUsername("postgres");
        dataSource.addDataSourceProperty("ApplicationName", "chaos-test");
        database = JdbcClient.create(dataSource);
        lock = new LeaderLock(database);
        var arguments = new ArrayList<>(List.of(
                "--spring.datasource.url=" + url,
                "--spring.datasource.username=postgres",
                "--spillover.bootstrap-admin-token=" + ADMIN,
                "--spillover.provider=sagemaker",
                "--spillover.sagemaker.region=us-east-1",
                "--spillover.sagemaker.role-arn=arn:aws:iam::111122223333:role/SpilloverJobs",
                "--spillover.sagemaker.output-s3-uri=s3://spillover-artifacts/out",
                "--spillover.sagemaker.endpoint-override=" + sageMaker.endpoint(),
                "--spillover.sagemaker.quota-endpoint-override=" + sageMaker.endpoint(),
                "--spillover.sagemaker.status-interval=200ms",
                "--spillover.sagemaker.plan-sync-interval=1h",
                "--spillover.sagemaker.retry.base-delay=10ms",
                "--spillover.sagemaker.retry.max-delay=50ms",
                // one HTTP try gives up after 2 s: the long mode's provider sometimes answers only after 3 s
                "--spillover.sagemaker.call-timeout=2s"));
        int i = 0;
        for (var quota : new TreeMap<>(ON_DEMAND).entrySet()) {
            arguments.add("--spillover.sagemaker.fleet[" + i + "].instance-type=" + quota.getKey());
            arguments.add("--spillover.sagemaker.fleet[" + i++ + "].on-demand-capacity=" + quota.getValue());
        }
        replicas = new Replicas(LOGS, List.of("-Xmx384m", "-XX:TieredStopAtLevel=1", "-Xshare:auto",
                "-Daws.accessKeyId=AKIAIOSFODNN7EXAMPLE", "-Daws.secretAccessKey=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
                arguments);
    }

    @AfterEach
    void stopIt() {
        if (replicas != null) {
            replicas.close();
        }
        sageMaker.stop();
        dataSource.close();
        if (postgres != null) {
            postgres.close();
        }
    }

    @Test
    void leadersKilledAtAnyMomentLoseNoJobLaunchNoneTwiceAndOverbookNothing() throws Exception {
        CompletableFuture.allOf(replicas.start(), replicas.start()).get(Replicas.STARTUP.toSeconds(), TimeUnit.SECONDS);
        setUpTeamsAndThePlan(replicas.next(null).api(ADMIN));
        note("%s leads", lock.awaitHolder(Duration.ofSeconds(10)));
        var stream = new JobStream(replicas, TEAMS, tokens(replicas.next(null).api(ADMIN)), PLAN,
                Duration.ofMillis(700), LONG ? 100_000 : 150);
        Thread streaming = new Thread(stream, "chaos-stream");
        streaming.start();

        await().atMost(Duration.ofSeconds(30)).until(() -> stream.acknowledged().size() >= 8);
        killTheLeaderWithSubmissionsInFlight("kill 1, mid-stream with submissions in flight to it", stream);
        killTheLeaderAtItsNextCreate("kill 2, between a launch and its commit", Moment.AFTER_THE_CREATE);
        killTheLeaderAtItsNextCreate("kill 3, between a placement and its launch", Moment.BEFORE_THE_CREATE);
        killTheLeaderWhileJobsAreStarting("kill 4, while jobs are STARTING");
        if (LONG) {
            theLongMode(stream);
        }
        // the checks below want a few submissions after the last takeover and at least 60 in all; the kills
        // come when their moments come, so the stream runs on until both hold rather than for a fixed time
        int enough = Math.max(stream.acknowledged().size() + 3, 60);
        await().atMost(Duration.ofSeconds(60)).until(() -> stream.acknowledged().size() >= enough);
        stream.end();
        streaming.join(Duration.ofSeconds(120).toMillis());
        assertThat(stream.failure()).as("the stream of submissions").isNull();
        awaitTheQueueDrained();

        Evidence evidence = Evidence.load(database, sageMaker, stream.acknowledged(), takeovers);
        List<String> violations = Invariants.check(evidence);
        summarize(evidence, stream, violations);
        assertThat(violations).as("invariant violations (instance logs in %s)", LOGS.toAbsolutePath()).isEmpty();
        assertThat(replicas.errors()).as("errors the instances logged").isEmpty();
        assertThat(takeovers).hasSize(KILLS);
        assertThat(evidence.acknowledged()).hasSizeGreaterThanOrEqualTo(60);
        if (LONG) {
            assertThat(postgres.restarts()).as("PostgreSQL restarts").isEqualTo(2);
            assertThat(sageMaker.throttled() + sageMaker.closed() + sageMaker.delayed())
                    .as("provider calls throttled or dropped").isPositive();
        }
    }

    /**
     * Kills 5 to {@link #KILLS}, each of a kind drawn from the seed (the four moments of the quick mode) after
     * a pause drawn from it (0 to 3 s, so kills do not always strike at the first chance); after 30 % of the
     * kills PostgreSQL is restarted, from 40 % to 70 % SageMaker throttles and drops answers, and after 80 %
     * PostgreSQL is stopped for {@link #REFUSED}, refusing every connection, and started again.
     */
    private void theLongMode(JobStream stream) throws Exception {
        for (int kill = 5; kill <= KILLS; kill++) {
            if (kill == Math.round(KILLS * 0.4)) {
                sageMaker.unreliable(0.25, 0.10, Duration.ofSeconds(3), SEED);
                note("SageMaker now throttles 25 %% of calls and drops the answers of 10 %% more");
            }
            Thread.sleep(random.nextInt(3000));
            String how = "kill " + kill;
            switch (random.nextInt(4)) {
                case 0 -> killTheLeaderWithSubmissionsInFlight(how + ", mid-stream with submissions in flight to it",
                        stream);
                case 1 -> killTheLeaderAtItsNextCreate(how + ", between a launch and its commit",
                        Moment.AFTER_THE_CREATE);
                case 2 -> killTheLeaderAtItsNextCreate(how + ", between a placement and its launch",
                        Moment.BEFORE_THE_CREATE);
                default -> killTheLeaderWhileJobsAreStarting(how + ", while jobs are STARTING");
            }
            if (kill == Math.round(KILLS * 0.3)) {
                outage("PostgreSQL restart", Duration.ZERO);
            }
            if (kill == Math.round(KILLS * 0.7)) {
                sageMaker.reliable();
                note("SageMaker is reliable again: %d calls throttled, %d answers dropped by a closed connection,"
                        + " %d answered after the call timeout (%d of them creates)", sageMaker.throttled(),
                        sageMaker.closed(), sageMaker.delayed(), sageMaker.droppedCreates());
            }
            if (kill == Math.round(KILLS * 0.8)) {
                outage("PostgreSQL stopped for " + REFUSED.toSeconds() + " s, refusing connections", REFUSED);
            }
        }
    }

    /**
     * Stops PostgreSQL with both instances serving, keeps it stopped for {@code down}, starts it again on the
     * same port and data, and measures how long after it took connections an instance held the scheduler lock
     * again. The instances answer 503 meanwhile, and the stream sends its submissions again.
     */
    private void outage(String how, Duration down) throws Exception {
        awaitAStandby();
        postgres.stop();
        note("%s: stopped", how);
        Thread.sleep(down.toMillis()); // the outage itself: a length, not a condition
        postgres.start();
        Instant back = Instant.now();
        String leader = await("the test's own pool reconnects").atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(50)).ignoreExceptions()
                .until(lock::holder, java.util.Optional::isPresent).orElseThrow();
        Duration after = Duration.between(back, Instant.now());
        recoveries.add(after);
        note("%s: PostgreSQL takes connections again; %s held the scheduler lock %d ms later", how, leader,
                after.toMillis());
    }

    /**
     * Sends a burst of submissions to the leader and kills it as soon as the first is stored: the others die
     * before they are stored or after, unanswered, and are sent again to the survivor with their tokens.
     */
    private void killTheLeaderWithSubmissionsInFlight(String how, JobStream stream) throws Exception {
        awaitAStandby();
        String leader = lock.awaitHolder(Duration.ofSeconds(10));
        JobStream.Burst burst = stream.burst(replicas.named(leader), 6);
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(5))
                .until(() -> database.sql("SELECT count(*) FROM jobs WHERE client_token IN (:tokens)")
                        .param("tokens", burst.clientTokens()).query(Integer.class).single() > 0);
        Instant died = replicas.kill(leader);
        tookOver(how, leader, died);
        burst.acknowledged().get(60, TimeUnit.SECONDS);
    }

    /** When a kill at a create strikes: once SageMaker made the job, or before it could. */
    private enum Moment { AFTER_THE_CREATE, BEFORE_THE_CREATE }

    /**
     * The next create the leader makes (only the leader launches) kills it, after SageMaker made the job and
     * before the leader heard so, or before SageMaker made it: the attempt is STARTING either way, and the new
     * leader must adopt the job made, or make the one never made, once.
     */
    private void killTheLeaderAtItsNextCreate(String how, Moment moment) throws Exception {
        awaitAStandby();
        var killed = new CompletableFuture<Killed>();
        Consumer<String> kill = providerJob -> {
            try {
                String leader = lock.holder().orElseThrow(() -> new IllegalStateException("no leader made "
                        + providerJob));
                killed.complete(new Killed(leader, providerJob, replicas.kill(leader)));
            } catch (RuntimeException e) {
                killed.completeExceptionally(e);
            }
        };
        if (moment == Moment.AFTER_THE_CREATE) {
            sageMaker.onNextCreate(kill);
        } else {
            sageMaker.beforeNextCreate(kill);
        }
        Killed victim = killed.get(60, TimeUnit.SECONDS);
        launchedByTheDying.put(victim.providerJob(), moment);
        note("%s: %s died %s %s", how, victim.instance(), moment == Moment.AFTER_THE_CREATE ? "right after it created"
                : "as it was about to create", victim.providerJob());
        tookOver(how, victim.instance(), victim.at());
    }

    private record Killed(String instance, String providerJob, Instant at) {
    }

    private void killTheLeaderWhileJobsAreStarting(String how) throws Exception {
        awaitAStandby();
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(20))
                .until(() -> database.sql("SELECT count(*) FROM jobs WHERE status = 'STARTING'").query(Integer.class)
                        .single() > 0);
        String leader = lock.awaitHolder(Duration.ofSeconds(10));
        Instant died = replicas.kill(leader);
        List<String> starting = database.sql("SELECT provider_job_name FROM jobs WHERE status = 'STARTING'")
                .query(String.class).list();
        long launched = sageMaker.creates().stream().filter(c -> starting.contains(c.name())).count();
        note("%s: %d job(s) were STARTING, %d of them already created on SageMaker", how, starting.size(), launched);
        tookOver(how, leader, died);
    }

    /** Measures, from outside, how long until another instance held the lock; then replaces the dead one. */
    private void tookOver(String how, String killed, Instant died) {
        Takeover takeover = lock.awaitTakeover(how, killed, died, TAKEOVER_WAIT);
        takeovers.add(takeover);
        note("%s: %s killed, %s took over after %d ms", how, killed, takeover.successor(), takeover.after().toMillis());
        replacement = replicas.start();
    }

    /** Two instances run again: the replacement of the last one killed is ready as standby. */
    private void awaitAStandby() throws Exception {
        if (replacement != null) {
            note("%s is the standby", replacement.get(Replicas.STARTUP.toSeconds(), TimeUnit.SECONDS).name());
        }
        assertThat(replicas.serving()).isEqualTo(2);
    }

    /** Until no job waits or runs; if some never settle, the invariants name them. */
    private void awaitTheQueueDrained() {
        try {
            await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(500))
                    .until(() -> database.sql("SELECT count(*) FROM jobs WHERE status IN"
                            + " ('PENDING', 'STARTING', 'RUNNING', 'STOPPING')").query(Integer.class).single() == 0);
        } catch (ConditionTimeoutException e) {
            note("the queue did not drain within 120 s");
        }
    }

    private void setUpTeamsAndThePlan(Api admin) {
        for (JobStream.Team team : TEAMS) {
            expect(admin.put("/api/v1/admin/teams/" + team.name(), Map.of("displayName", team.name(), "weight", 1,
                    "queueing", "BEST_EFFORT_FIFO")), 201);
            var quotas = new LinkedHashMap<String, Object>();
            quotas.put("instanceLimits", team.limits());
            quotas.put("maxConcurrentJobs", team.name().equals("vision") ? 2 : null);
            expect(admin.put("/api/v1/admin/teams/" + team.name() + "/quotas", quotas), 200);
        }
        expect(admin.put("/api/v1/admin/training-plans/" + PLAN, Map.of("arn", PLAN_ARN,
                "instanceType", "ml.p5.48xlarge", "instanceCount", PLAN_INSTANCES,
                "startTime", "2020-01-01T00:00:00Z", "endTime", "2099-01-01T00:00:00Z",
                "teams", TEAMS.stream().filter(JobStream.Team::usesPlan).map(JobStream.Team::name).toList())), 201);
        expect(admin.post("/api/v1/admin/training-plans/sync", Map.of()), 200);
        assertThat(expect(admin.get("/api/v1/teams/vision/training-plans"), 200).json().get(0).get("status")
                .asString()).isEqualTo("ACTIVE");
    }

    /** A member token per team, so that each submission speaks for its team. */
    private static Map<String, String> tokens(Api admin) {
        return TEAMS.stream().collect(Collectors.toMap(JobStream.Team::name, team -> expect(admin.post(
                "/api/v1/teams/" + team.name() + "/tokens", Map.of("name", "chaos", "role", "MEMBER")), 201)
                .json().get("secret").asString()));
    }

    private static Api.Response expect(Api.Response response, int status) {
        assertThat(response.status()).as(response.text()).isEqualTo(status);
        return response;
    }

    private void note(String format, Object... arguments) {
        String line = String.format("%6.1f s  ", Duration.between(began, Instant.now()).toMillis() / 1000.0)
                + String.format(format, arguments);
        log.add(line);
        System.out.println("[chaos] " + line);
    }

    /** What happened, in target/chaos/summary.txt and summary.json, and on the console. */
    private void summarize(Evidence evidence, JobStream stream, List<String> violations) throws IOException {
        Map<String, Long> statuses = evidence.jobs().stream()
                .collect(Collectors.groupingBy(j -> j.status() + " " + j.reason(), TreeMap::new, Collectors.counting()));
        long made = evidence.creates().stream().filter(FakeSageMaker.Create::created).count();
        note("%d submissions acknowledged; %d sent again after an instance died, %d of them answered 200 (an earlier"
                + " try had made the job); %d jobs stopped by their users", evidence.acknowledged().size(),
                stream.resent(), stream.foundByToken(), stream.stopped());
        note("jobs: %s; %d waited for capacity at least once, %d started on a later entry than their first", statuses,
                database.sql("SELECT count(DISTINCT job_id) FROM job_evaluations WHERE outcome <> 'SELECTED'")
                        .query(Integer.class).single(),
                evidence.transitions().stream().filter(t -> t.message() != null
                        && t.message().matches("placed on entry [1-9].*")).count());
        note("SageMaker: %d creates, %d jobs made, %d answered ResourceInUse; peaks in progress: %s",
                evidence.creates().size(), made, evidence.creates().size() - made,
                evidence.providerPeaks().values().stream().map(p -> p.instances() + " x " + p.instanceType())
                        .sorted().toList());
        launchedByTheDying.forEach((providerJob, moment) -> note("%s, launched by a leader that died %s: %d create(s)"
                        + " made it, its job is %s", providerJob, moment == Moment.AFTER_THE_CREATE
                        ? "before it heard the answer" : "before the create reached SageMaker",
                evidence.creates().stream().filter(c -> c.name().equals(providerJob) && c.created()).count(),
                database.sql("SELECT status FROM jobs WHERE provider_job_name = ?").param(providerJob)
                        .query(String.class).optional().orElse("gone")));
        Map<String, Long> tally = Invariants.tally(violations);
        List<Long> times = takeovers.stream().map(t -> t.after().toMillis()).sorted().toList();
        long p50 = times.isEmpty() ? 0 : times.get((times.size() - 1) / 2);
        long max = times.isEmpty() ? 0 : times.get(times.size() - 1);
        note("%d SIGKILLs, %d PostgreSQL restarts (%.1f s refusing connections in all), SageMaker: %d calls"
                        + " throttled, %d answers dropped (%d connections closed, %d answered after the call timeout);"
                        + " lost %d, doubled %d, overbooked %d, other violations %d; takeover p50 %d ms, max %d ms"
                        + " (target %d s: %s); PostgreSQL back to a leader after %s ms",
                takeovers.size(), postgres.restarts(), postgres.down().toMillis() / 1000.0, sageMaker.throttled(),
                sageMaker.closed() + sageMaker.delayed(), sageMaker.closed(), sageMaker.delayed(), tally.get("lost"),
                tally.get("doubled"), tally.get("overbooked"), tally.get("other"), p50, max,
                TAKEOVER_TARGET.toSeconds(), max <= TAKEOVER_TARGET.toMillis() ? "met" : "MISSED",
                recoveries.stream().map(Duration::toMillis).toList());
        Files.write(LOGS.resolve("summary.txt"), log);
        var json = new LinkedHashMap<String, Object>();
        json.put("mode", LONG ? "long" : "quick");
        json.put("seed", SEED);
        json.put("seconds", Duration.between(began, Instant.now()).toSeconds());
        json.put("sigkills", takeovers.size());
        json.put("postgresRestarts", postgres.restarts());
        json.put("refusedConnectionSeconds", postgres.down().toMillis() / 1000.0);
        json.put("postgresBackToALeaderMillis", recoveries.stream().map(Duration::toMillis).toList());
        json.put("providerThrottled", sageMaker.throttled());
        json.put("providerDropped", sageMaker.closed() + sageMaker.delayed());
        json.put("providerDroppedByClosedConnection", sageMaker.closed());
        json.put("providerDroppedByLateAnswer", sageMaker.delayed());
        json.put("providerDroppedCreates", sageMaker.droppedCreates());
        json.put("submissionsAcknowledged", evidence.acknowledged().size());
        json.put("jobs", statuses);
        json.put("providerJobsMade", made);
        json.put("lost", tally.get("lost"));
        json.put("doubled", tally.get("doubled"));
        json.put("overbooked", tally.get("overbooked"));
        json.put("otherViolations", tally.get("other"));
        json.put("violations", violations);
        json.put("takeoverP50Millis", p50);
        json.put("takeoverMaxMillis", max);
        json.put("takeoverTargetMet", max <= TAKEOVER_TARGET.toMillis());
        json.put("takeovers", takeovers.stream().map(t -> Map.of("how", t.how(), "killed", t.killed(),
                "successor", t.successor(), "millis", t.after().toMillis())).toList());
        json.put("errorsLogged", replicas.errors().size());
        Files.writeString(LOGS.resolve("summary.json"), JsonMapper.builder().build().writerWithDefaultPrettyPrinter()
                .writeValueAsString(json));
    }
}
