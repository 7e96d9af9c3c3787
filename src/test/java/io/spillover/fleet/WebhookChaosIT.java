package io.spillover.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import io.spillover.support.Api;
import io.spillover.support.TestDatabase;
import io.spillover.support.WebhookReceiver;
import io.spillover.support.WebhookReceiver.Answer;
import io.spillover.support.WebhookReceiver.Received;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.util.FileSystemUtils;

/**
 * The webhook dispatcher under chaos: two instances of the packaged jar on one database, a stream of jobs that
 * start, fall back, complete, are stopped and time out, and a receiver that answers slowly and sometimes 500,
 * while an instance that is sending a delivery right then is killed with SIGKILL, again and again (a fresh one
 * replacing it each time). Afterwards, with the receiver well again: every event committed to the outbox reached
 * the receiver at least once, every event received was committed with the transition it reports (none for a
 * change that rolled back), a duplicate is the same event under the same {@code webhook-id} and never in flight
 * twice at once, each job's events arrived in order, every signature verifies, and no instance logged an error.
 * The figures go to {@code target/webhook-chaos/summary.json}. {@code -Dspillover.webhooks.chaos.kills=N} runs
 * more kills (the long mode).
 */
class WebhookChaosIT {

    static final String ADMIN = "webhook-chaos-admin-token";
    static final Path LOGS = Path.of("target", "webhook-chaos");
    static final String KEY = "d2ViaG9vay1jaGFvcy10ZXN0LWtleS0zMi1ieXRlcyE=";
    static final int KILLS = Integer.getInteger("spillover.webhooks.chaos.kills", 3);
    static final long SEED = Long.getLong("spillover.webhooks.chaos.seed", 20261205L);
    static final List<String> EVENTS = List.of("job.started", "job.fell-back", "job.completed", "job.failed",
            "job.stopped", "job.pending-timeout");

    private final HikariDataSource dataSource = new HikariDataSource();
    private final WebhookReceiver receiver = new WebhookReceiver();
    private final Random random = new Random(SEED);
    private final AtomicBoolean unreliable = new AtomicBoolean(true);
    private final AtomicInteger failedOnPurpose = new AtomicInteger();
    private final List<String> log = new ArrayList<>();
    private final List<Duration> redelivered = new ArrayList<>();
    private JdbcClient database;
    private Replicas replicas;

    @BeforeEach
    void startTwoInstancesAndAReceiver() throws IOException {
        FileSystemUtils.deleteRecursively(LOGS);
        Files.createDirectories(LOGS);
        String url = TestDatabase.newDatabase();
        dataSource.setJdbcUrl(url);
        dataSource.setUsername("postgres");
        database = JdbcClient.create(dataSource);
        // slow (up to 1.5 s of the instances' 2 s) and one answer in five a 500, until the end
        receiver.answering(r -> {
            if (!unreliable.get()) {
                return Answer.ok();
            }
            synchronized (random) {
                if (random.nextInt(5) == 0) {
                    failedOnPurpose.incrementAndGet();
                    return new Answer(500, Duration.ofMillis(random.nextInt(300)));
                }
                return new Answer(200, Duration.ofMillis(random.nextInt(1_500)));
            }
        });
        replicas = new Replicas(LOGS, List.of("-Xmx384m", "-XX:TieredStopAtLevel=1", "-Xshare:auto"), List.of(
                "--spring.datasource.url=" + url,
                "--spring.datasource.username=postgres",
                "--spillover.bootstrap-admin-token=" + ADMIN,
                "--spillover.data-dir=" + LOGS.toAbsolutePath().resolve("data"),
                "--spillover.webhooks.secret-key=" + KEY,
                "--spillover.webhooks.allowed-hosts=127.0.0.1",
                "--spillover.webhooks.timeout=2s",
                "--spillover.webhooks.poll-interval=500ms",
                "--spillover.webhooks.retry.initial-delay=200ms",
                "--spillover.webhooks.retry.max-delay=2s"));
    }

    @AfterEach
    void stopAll() {
        replicas.close();
        receiver.close();
        dataSource.close();
    }

    @Test
    void killingDispatchingInstancesLosesNoEventSendsNoneForARolledBackChangeAndDuplicatesOnlyUnderOneId()
            throws Exception {
        Instant began = Instant.now();
        CompletableFuture.allOf(replicas.start(), replicas.start()).get(Replicas.STARTUP.toSeconds(), TimeUnit.SECONDS);
        Api admin = replicas.next(null).api(ADMIN);
        // m5 is plenty, g5 scarce (jobs fall back to m5), p5 absent (jobs naming only it time out)
        expect(admin.put("/api/v1/admin/fleet/us-east-1/ml.g5.2xlarge", Map.of("onDemandCapacity", 2)), 200);
        expect(admin.put("/api/v1/admin/fleet/us-east-1/ml.p5.48xlarge", Map.of("onDemandCapacity", 0)), 200);
        expect(admin.put("/api/v1/admin/teams/chaos", Map.of("displayName", "Chaos")), 201);
        expect(admin.put("/api/v1/admin/teams/chaos/quotas", Map.of("instanceLimits", Map.of("ml.m5.xlarge", 32,
                "ml.g5.2xlarge", 2, "ml.p5.48xlarge", 1))), 200);
        String secret = expect(admin.put("/api/v1/teams/chaos/webhooks/chaos", Map.of("url", receiver.url("/hook"),
                "events", EVENTS)), 201).json().get("secret").asString();
        receiver.secret(secret);

        var submitted = new AtomicInteger();
        var streaming = new AtomicBoolean(true);
        Thread stream = new Thread(() -> submitJobs(streaming, submitted), "webhook-chaos-jobs");
        stream.start();
        for (int kill = 1; kill <= KILLS; kill++) {
            killAnInstanceMidDelivery(kill);
        }
        await().atMost(Duration.ofSeconds(20)).until(() -> submitted.get() >= 40);
        streaming.set(false);
        stream.join(30_000);

        // the end: every live job stopped, the receiver well, the outbox drained
        Api api = replicas.next(null).api(ADMIN);
        stopWhatIsLeft(api);
        unreliable.set(false);
        await("the outbox drained").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(250)).until(() ->
                database.sql("SELECT count(*) FROM webhook_deliveries WHERE state <> 'DELIVERED'").query(Integer.class)
                        .single() == 0
                && database.sql("SELECT count(*) FROM webhook_events WHERE NOT expanded").query(Integer.class)
                        .single() == 0
                && database.sql("SELECT count(*) FROM jobs WHERE status NOT IN ('COMPLETED', 'FAILED', 'STOPPED')")
                        .query(Integer.class).single() == 0);

        Map<String, Object> summary = check(began, submitted.get());
        Path file = LOGS.resolve("summary.json");
        Files.writeString(file, Api.JSON.writerWithDefaultPrettyPrinter().writeValueAsString(summary));
        System.out.println("Webhook chaos: " + Api.JSON.writeValueAsString(summary));
        assertThat(replicas.errors()).as("errors the instances logged").isEmpty();
    }

    /** Waits until an instance holds a delivery's lease while the receiver has its request, and SIGKILLs it. */
    private void killAnInstanceMidDelivery(int kill) throws Exception {
        Map<Long, SpilloverProcess> byPid = new HashMap<>();
        var victim = new SpilloverProcess[1];
        await("kill " + kill + ": an instance mid-delivery").atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(20)).until(() -> {
                    for (int i = 0; i < 2; i++) {
                        SpilloverProcess instance = replicas.next(null);
                        byPid.put(instance.pid(), instance);
                    }
                    List<String> holders = database.sql("""
                                    SELECT leased_by FROM webhook_deliveries
                                     WHERE state = 'PENDING' AND leased_until > now() AND leased_by IS NOT NULL""")
                            .query(String.class).list();
                    for (String holder : holders) {
                        SpilloverProcess instance = byPid.get(Long.parseLong(holder.substring(0, holder.indexOf('@'))));
                        if (instance != null && instance.alive()) {
                            victim[0] = instance;
                            return true;
                        }
                    }
                    return false;
                });
        long leased = database.sql("SELECT count(*) FROM webhook_deliveries WHERE state = 'PENDING'"
                + " AND leased_until > now() AND leased_by LIKE ?").param(victim[0].pid() + "@%").query(Long.class)
                .single();
        List<Long> inFlight = database.sql("SELECT id FROM webhook_deliveries WHERE state = 'PENDING'"
                + " AND leased_by LIKE ?").param(victim[0].pid() + "@%").query(Long.class).list();
        Instant killedAt = replicas.kill(victim[0].name());
        log.add("kill " + kill + ": " + victim[0] + " holding " + leased + " deliveries' leases");
        CompletableFuture<SpilloverProcess> replacement = replicas.start();
        // what the dead instance was sending is sent again by the survivor once the leases run out
        await("kill " + kill + ": its deliveries taken over").atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(50)).until(() -> inFlight.isEmpty() || database.sql("""
                        SELECT count(*) FROM webhook_deliveries
                         WHERE id = ANY (?) AND state = 'PENDING' AND (leased_by LIKE ? OR leased_by IS NULL)""")
                .params(inFlight.toArray(Long[]::new), victim[0].pid() + "@%").query(Integer.class).single() == 0);
        redelivered.add(Duration.between(killedAt, Instant.now()));
        replacement.get(Replicas.STARTUP.toSeconds(), TimeUnit.SECONDS);
    }

    /** Jobs of every kind of ending, to both instances in turn, each with a client token (resent on a failure). */
    private void submitJobs(AtomicBoolean streaming, AtomicInteger submitted) {
        int n = 0;
        while (streaming.get()) {
            n++;
            String name = "job-" + n;
            var body = new LinkedHashMap<String, Object>();
            body.put("name", name);
            body.put("kind", "TRAINING");
            body.put("clientToken", name);
            body.put("instanceCount", 1);
            switch (n % 5) {
                case 0 -> { // times out
                    body.put("instancePreferences", List.of(Map.of("instanceType", "ml.p5.48xlarge")));
                    body.put("maxPendingTimeInSeconds", 2);
                }
                case 1 -> { // will be stopped while it runs
                    body.put("instancePreferences", List.of(Map.of("instanceType", "ml.m5.xlarge")));
                    body.put("local", Map.of("runtimeSeconds", 600));
                }
                case 2 -> { // fails
                    body.put("instancePreferences", List.of(Map.of("instanceType", "ml.m5.xlarge")));
                    body.put("local", Map.of("runtimeSeconds", 1, "exitCode", 3));
                }
                default -> { // completes, falling back when the g5 are taken
                    body.put("instancePreferences", List.of(Map.of("instanceType", "ml.g5.2xlarge"),
                            Map.of("instanceType", "ml.m5.xlarge")));
                    body.put("local", Map.of("runtimeSeconds", 1 + n % 3));
                }
            }
            for (int attempt = 0; attempt < 10; attempt++) {
                try {
                    Api.Response answer = replicas.next(null).api(ADMIN).post("/api/v1/teams/chaos/jobs", body);
                    if (answer.status() == 201 || answer.status() == 200) {
                        submitted.incrementAndGet();
                        break;
                    }
                } catch (RuntimeException instanceGone) {
                    // resent to the other instance with the same client token
                }
            }
            if (n % 5 == 1) {
                String stopped = "job-" + n;
                CompletableFuture.runAsync(() -> {
                    try {
                        Thread.sleep(1_500);
                        replicas.next(null).api(ADMIN).post("/api/v1/teams/chaos/jobs/" + stopped + "/stop", Map.of());
                    } catch (InterruptedException | RuntimeException ignored) {
                        // stopped at the end otherwise
                    }
                });
            }
            try {
                Thread.sleep(250);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private void stopWhatIsLeft(Api api) {
        for (String name : database.sql("SELECT name FROM jobs WHERE status NOT IN ('COMPLETED', 'FAILED', 'STOPPED')")
                .query(String.class).list()) {
            api.post("/api/v1/teams/chaos/jobs/" + name + "/stop", Map.of());
        }
    }

    /** The invariants, and the figures of the run. */
    private Map<String, Object> check(Instant began, int submitted) {
        record Event(UUID id, UUID job, long transition, int ordinal, String type, String body) {
        }
        List<Event> committed = database.sql("""
                        SELECT e.id, e.job_id, e.transition_id, e.ordinal, e.type, e.body FROM webhook_events e
                          JOIN webhooks w ON w.id = ANY (e.webhook_ids) WHERE w.name = 'chaos'""")
                .query((rs, n) -> new Event(rs.getObject("id", UUID.class), rs.getObject("job_id", UUID.class),
                        rs.getLong("transition_id"), rs.getInt("ordinal"), rs.getString("type"), rs.getString("body")))
                .list();
        Map<String, Event> byId = new HashMap<>();
        committed.forEach(e -> byId.put(e.id().toString(), e));
        List<Received> received = receiver.received();

        // 1. every committed event reached the receiver (answered 2xx at least once)
        Set<String> accepted = new HashSet<>(receiver.accepted().stream().map(Received::webhookId).toList());
        List<String> lost = committed.stream().map(e -> e.id().toString()).filter(id -> !accepted.contains(id)).toList();
        assertThat(lost).as("events committed and never delivered").isEmpty();

        // 2. every event received was committed, with the transition it reports (nothing of a rolled-back change)
        List<String> uncommitted = received.stream().map(Received::webhookId).distinct()
                .filter(id -> !byId.containsKey(id)).toList();
        assertThat(uncommitted).as("events received that were never committed").isEmpty();
        Set<Long> transitions = new HashSet<>(database.sql("SELECT id FROM job_transitions WHERE team = 'chaos'")
                .query(Long.class).list());
        assertThat(committed).as("events whose transition was not committed")
                .allSatisfy(e -> assertThat(transitions).contains(e.transition()));

        // 3. duplicates are the same event under the same id, every request signed, none in flight twice at once
        assertThat(received).allSatisfy(r -> {
            assertThat(r.verified()).as("signature of " + r.webhookId()).isTrue();
            assertThat(new String(r.body(), java.nio.charset.StandardCharsets.UTF_8))
                    .isEqualTo(byId.get(r.webhookId()).body());
        });
        assertThat(receiver.overlaps()).as("requests of one webhook-id in flight at once").isZero();

        // 4. each job's events first arrived in the order of its transitions
        Map<UUID, List<Event>> firstByJob = new LinkedHashMap<>();
        receiver.firstReceipts().forEach(r -> {
            Event e = byId.get(r.webhookId());
            firstByJob.computeIfAbsent(e.job(), j -> new ArrayList<>()).add(e);
        });
        firstByJob.forEach((job, events) -> {
            for (int i = 1; i < events.size(); i++) {
                Event before = events.get(i - 1);
                Event after = events.get(i);
                assertThat(before.transition() < after.transition()
                        || before.transition() == after.transition() && before.ordinal() < after.ordinal())
                        .as("job %s: %s arrived after %s", job, before.type(), after.type()).isTrue();
            }
        });

        // 5. the outbox holds an event for every transition the hook wants (none lost before it): one per start and
        // end, and a fell-back for every start on an entry other than the first
        Map<String, Integer> fromLog = database.sql("""
                        SELECT count(*) FILTER (WHERE to_status IN ('COMPLETED', 'FAILED', 'STOPPED')
                                                   OR (to_status = 'STARTING' AND from_status = 'PENDING')) AS events,
                               count(*) FILTER (WHERE to_status = 'STARTING' AND from_status = 'PENDING'
                                                  AND message NOT LIKE 'placed on entry 0:%') AS fell_back
                          FROM job_transitions WHERE team = 'chaos'""")
                .query((rs, n) -> Map.of("events", rs.getInt("events"), "fellBack", rs.getInt("fell_back"))).single();
        long fellBack = committed.stream().filter(e -> e.type().equals("job.fell-back")).count();
        assertThat(committed.size() - fellBack).as("events of starts and ends")
                .isEqualTo(fromLog.get("events").longValue());
        assertThat(fellBack).as("fell-back events").isEqualTo(fromLog.get("fellBack").longValue());

        var types = new TreeMap<String, Long>();
        committed.forEach(e -> types.merge(e.type(), 1L, Long::sum));
        var attempts = database.sql("SELECT count(*) FROM webhook_attempts").query(Long.class).single();
        var summary = new LinkedHashMap<String, Object>();
        summary.put("seed", SEED);
        summary.put("seconds", Duration.between(began, Instant.now()).toSeconds());
        summary.put("kills", KILLS);
        summary.put("killLog", log);
        summary.put("jobsSubmitted", submitted);
        summary.put("eventsCommitted", committed.size());
        summary.put("eventsByType", types);
        summary.put("requestsReceived", received.size());
        summary.put("answered500OnPurpose", failedOnPurpose.get());
        // a request again after a 500 or a timeout is a retry; again after a 2xx (the sender died, or lost its lease,
        // before it recorded the answer) a duplicate
        var answered = new HashSet<String>();
        int duplicates = 0;
        for (Received r : received.stream().sorted(java.util.Comparator.comparing(Received::at)).toList()) {
            if (answered.contains(r.webhookId())) {
                duplicates++;
            }
            if (r.answered() / 100 == 2) {
                answered.add(r.webhookId());
            }
        }
        summary.put("retriesAfterAFailure", received.size() - receiver.firstReceipts().size() - duplicates);
        summary.put("duplicatesAfterA2xx", duplicates);
        summary.put("duplicatesWithAnotherBody", 0);
        summary.put("attemptsRecorded", attempts);
        summary.put("eventsLost", lost.size());
        summary.put("eventsOfUncommittedChanges", uncommitted.size());
        summary.put("overlappingDeliveriesOfOneId", receiver.overlaps());
        summary.put("takeoverOfKilledDeliveriesSeconds", redelivered.stream()
                .map(d -> Math.round(d.toMillis() / 100.0) / 10.0).toList());
        summary.put("signaturesVerified", received.stream().filter(Received::verified).count());
        return summary;
    }

    private static Api.Response expect(Api.Response response, int status) {
        assertThat(response.status()).as(response.text()).isEqualTo(status);
        return response;
    }
}
