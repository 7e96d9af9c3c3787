package io.spillover.scheduling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.spillover.SpilloverApplication;
import io.spillover.support.Api;
import io.spillover.support.TestDatabase;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;

/**
 * Two instances on one database, the way replicas run: whichever instance takes a change, the one that
 * schedules acts on it at once. The safety sweep is set to an hour, so only the announcement can explain a
 * job starting within a second. Both are set to estimate starts on an instance that does not schedule
 * ({@code spillover.estimates.runs-on=standby}), as a fleet that keeps its scheduler's cores to itself would.
 */
class ReplicasTest {

    private static final String ADMIN_TOKEN = "test-bootstrap-admin-token";
    private static final String P5 = "ml.p5.48xlarge";
    private static final String G6 = "ml.g6.48xlarge";
    private static final String M5 = "ml.m5.xlarge";
    private static final String P4D = "ml.p4d.24xlarge";
    private static ConfigurableApplicationContext leader;
    private static ConfigurableApplicationContext replica;
    /** The API of the instance that does not schedule: every change in these tests goes through it. */
    private static Api api;
    private static Api leaderApi;

    @BeforeAll
    static void startTwoInstances() {
        String database = TestDatabase.newDatabase();
        leader = start(database);
        await().atMost(Duration.ofSeconds(10)).until(() -> leader.getBean(Leadership.class).leading());
        replica = start(database);
        assertThat(replica.getBean(Leadership.class).leading()).isFalse();
        api = new Api(((WebServerApplicationContext) replica).getWebServer().getPort(), ADMIN_TOKEN);
        leaderApi = new Api(((WebServerApplicationContext) leader).getWebServer().getPort(), ADMIN_TOKEN);
    }

    private static ConfigurableApplicationContext start(String database) {
        return new SpringApplicationBuilder(SpilloverApplication.class).profiles("test")
                .run("--spring.datasource.url=" + database, "--spring.datasource.username=postgres",
                        "--server.port=0", "--spillover.scheduling.sweep-interval=1h",
                        "--spillover.estimates.runs-on=standby");
    }

    @AfterAll
    static void stop() {
        replica.close();
        leader.close();
    }

    @Test
    void aJobSubmittedThroughAnotherReplicaIsPlacedAtOnce() {
        String team = team("submits-elsewhere", Map.of(M5, 1, P4D, 1), null);
        capacity(M5, 1);
        // Announcements arrive in commit order: once a later one has been acted on, the capacity change has
        // been too, and only the submission below can wake the scheduler for the job.
        submit(team, "probe", P4D); // no P4D capacity: it stays pending
        awaitEvaluated(team, "probe");

        JsonNode submitted = submit(team, "now", M5);

        JsonNode started = awaitStatus(team, "now", "RUNNING");
        assertThat(Duration.between(Instant.parse(submitted.get("createdAt").asString()), transitionTo(started, "STARTING")))
                .isBetween(Duration.ZERO, Duration.ofSeconds(1));
        assertThat(latestTrigger(team, "now")).isEqualTo("SUBMITTED");
    }

    @Test
    void capacityAddedThroughAnotherReplicaWakesTheWaitingJob() {
        String team = team("capacity-elsewhere", Map.of(P5, 1), null);
        capacity(P5, 0);
        submit(team, "needs-p5", P5);
        awaitEvaluated(team, "needs-p5");

        Instant changed = Instant.now();
        capacity(P5, 1);

        JsonNode started = awaitStatus(team, "needs-p5", "RUNNING");
        assertThat(Duration.between(changed, transitionTo(started, "STARTING"))).isLessThan(Duration.ofSeconds(1));
        assertThat(latestTrigger(team, "needs-p5")).isEqualTo("CAPACITY_CHANGED");
    }

    @Test
    void aQuotaRaisedThroughAnotherReplicaWakesTheWaitingJob() {
        String team = team("quota-elsewhere", Map.of(G6, 1), 1);
        capacity(G6, 2);
        submit(team, "one", G6);
        awaitStatus(team, "one", "RUNNING");
        submit(team, "two", G6);
        awaitEvaluated(team, "two");

        Instant raised = Instant.now();
        quotas(team, Map.of(G6, 2), 2);

        JsonNode started = awaitStatus(team, "two", "RUNNING");
        assertThat(Duration.between(raised, transitionTo(started, "STARTING"))).isLessThan(Duration.ofSeconds(1));
        assertThat(latestTrigger(team, "two")).isEqualTo("QUOTA_CHANGED");
    }

    @Test
    void startsEstimatedOnTheInstanceThatDoesNotScheduleReachBothAndTheEventStreamOfTheOneThatDoes() throws Exception {
        String team = team("estimated-elsewhere", Map.of(P4D, 3), null);
        capacity(P4D, 1);
        submit(team, "holder", P4D);
        awaitStatus(team, "holder", "RUNNING");
        var events = new java.util.concurrent.CopyOnWriteArrayList<String>();
        submit(team, "waits", P4D);
        follow(leaderApi, team, "waits", events);

        JsonNode onReplica = await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
                .until(() -> expect(api.get("/api/v1/teams/" + team + "/jobs/waits"), 200).json()
                        .get("estimatedStart"), e -> e != null && !e.isNull());

        assertThat(onReplica.get("basis").asString()).startsWith("first in line on " + P4D);
        assertThat(expect(leaderApi.get("/api/v1/teams/" + team + "/jobs/waits"), 200).json().get("estimatedStart"))
                .isEqualTo(onReplica);
        await().atMost(Duration.ofSeconds(10)).until(() -> events.contains("event:estimate"));
        assertThat(estimations(leader)).as("the scheduler estimates nothing").isZero();
        assertThat(estimations(replica)).isPositive();
    }

    private static long estimations(ConfigurableApplicationContext instance) {
        return instance.getBean(io.micrometer.core.instrument.MeterRegistry.class).find("spillover.estimates.run")
                .timers().stream().mapToLong(io.micrometer.core.instrument.Timer::count).sum();
    }

    /** Reads the job's event stream on that instance, line by line, into {@code lines}. */
    private static void follow(Api on, String team, String job, List<String> lines) throws Exception {
        int port = ((WebServerApplicationContext) (on == leaderApi ? leader : replica)).getWebServer().getPort();
        var request = java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://localhost:" + port
                        + "/api/v1/teams/" + team + "/jobs/" + job + "/events"))
                .header("Authorization", "Bearer " + ADMIN_TOKEN).header("Accept", "text/event-stream").build();
        java.net.http.HttpClient.newHttpClient().sendAsync(request,
                java.net.http.HttpResponse.BodyHandlers.ofLines()).thenAccept(r -> r.body().forEach(lines::add));
    }

    @Test
    void announcementsCarryTheirScopeAndOversizedOnesAskForASweep() {
        var scope = Scope.team("vision", Trigger.QUOTA_CHANGED)
                .and(Scope.offering(io.spillover.placement.OfferingKey.plan("us-east-1", P5, "h1"), Trigger.PLAN_ACTIVATED));

        ReplicaWakeups.Wire wire = ReplicaWakeups.decode(ReplicaWakeups.encode(scope));

        assertThat(wire.scope().teams()).isEqualTo(Map.of("vision", Trigger.QUOTA_CHANGED));
        assertThat(wire.scope().offerings()).isEqualTo(scope.offerings());

        var huge = new Scope();
        for (int i = 0; i < 500; i++) {
            huge.and(Scope.job(java.util.UUID.randomUUID(), Trigger.SUBMITTED));
        }
        String payload = ReplicaWakeups.encode(huge);
        assertThat(payload.length()).isLessThanOrEqualTo(ReplicaWakeups.MAX_PAYLOAD);
        assertThat(ReplicaWakeups.decode(payload).scope().all()).isEqualTo(Trigger.SWEEP);
    }

    // --- through the replica's API ---------------------------------------------------------------------------

    private static String team(String name, Map<String, Integer> limits, Integer maxConcurrentJobs) {
        expect(api.put("/api/v1/admin/teams/" + name, Map.of("displayName", name)), 201);
        quotas(name, limits, maxConcurrentJobs);
        return name;
    }

    private static void quotas(String team, Map<String, Integer> limits, Integer maxConcurrentJobs) {
        var quotas = new java.util.HashMap<String, Object>();
        quotas.put("instanceLimits", limits);
        quotas.put("maxConcurrentJobs", maxConcurrentJobs);
        expect(api.put("/api/v1/admin/teams/" + team + "/quotas", quotas), 200);
    }

    private static void capacity(String instanceType, int instances) {
        expect(api.put("/api/v1/admin/fleet/us-east-1/" + instanceType, Map.of("onDemandCapacity", instances)), 200);
    }

    private static JsonNode submit(String team, String name, String instanceType) {
        return expect(api.post("/api/v1/teams/" + team + "/jobs", Map.of("name", name, "kind", "TRAINING",
                "instancePreferences", List.of(Api.entry(instanceType, 1)),
                "local", Map.of("runtimeSeconds", 3600))), 201).json();
    }

    private static JsonNode awaitStatus(String team, String job, String... statuses) {
        var wanted = Set.of(statuses);
        return await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
                .until(() -> expect(api.get("/api/v1/teams/" + team + "/jobs/" + job), 200).json(),
                        j -> wanted.contains(j.get("status").asString()));
    }

    private static void awaitEvaluated(String team, String job) {
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
                .until(() -> evaluations(team, job).size() > 0);
    }

    private static JsonNode evaluations(String team, String job) {
        return expect(api.get("/api/v1/teams/" + team + "/jobs/" + job + "/evaluations"), 200).json();
    }

    private static String latestTrigger(String team, String job) {
        return evaluations(team, job).get(0).get("trigger").asString();
    }

    private static Instant transitionTo(JsonNode job, String status) {
        for (JsonNode transition : job.get("transitions")) {
            if (transition.get("to").asString().equals(status)) {
                return Instant.parse(transition.get("at").asString());
            }
        }
        throw new AssertionError("no transition to " + status + " in " + job);
    }

    private static Api.Response expect(Api.Response response, int status) {
        assertThat(response.status()).as(response.text()).isEqualTo(status);
        return response;
    }
}
