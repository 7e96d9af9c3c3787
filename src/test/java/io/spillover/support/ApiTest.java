package io.spillover.support;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.ContextConfiguration;
import tools.jackson.databind.JsonNode;

/**
 * An end-to-end test through the HTTP API of a running Spillover on real PostgreSQL with the local
 * provider. Every test works in teams of its own; afterwards every job it left running is stopped, so
 * the next test starts with the fleet free.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ActiveProfiles("test")
@ContextConfiguration(initializers = TestDatabase.Initializer.class)
public abstract class ApiTest {

    private static final AtomicInteger TEAMS = new AtomicInteger();
    private static final Set<String> LIVE = Set.of("PENDING", "STARTING", "RUNNING", "STOPPING");

    @LocalServerPort
    private int port;
    protected Api api;
    private final List<String> teams = new ArrayList<>();

    /** The platform-admin token the test profile configures as SPILLOVER_BOOTSTRAP_ADMIN_TOKEN. */
    protected static final String ADMIN_TOKEN = "test-bootstrap-admin-token";

    @BeforeEach
    void connect() {
        api = new Api(port, ADMIN_TOKEN);
    }

    protected int port() {
        return port;
    }

    /** A new team with these instance limits and no other caps. */
    protected String team(Map<String, Integer> instanceLimits) {
        return team(instanceLimits, null, null);
    }

    protected String team(Map<String, Integer> instanceLimits, Integer maxAccelerators, Integer maxConcurrentJobs) {
        String name = "team-" + TEAMS.incrementAndGet();
        expect(api.put("/api/v1/admin/teams/" + name, Map.of("displayName", "Team " + name)), 201);
        var quotas = new LinkedHashMap<String, Object>();
        quotas.put("instanceLimits", instanceLimits);
        quotas.put("maxAccelerators", maxAccelerators);
        quotas.put("maxConcurrentJobs", maxConcurrentJobs);
        expect(api.put("/api/v1/admin/teams/" + name + "/quotas", quotas), 200);
        teams.add(name);
        return name;
    }

    /** Sets the on-demand capacity of a type in us-east-1. */
    protected void capacity(String instanceType, int instances) {
        capacity("us-east-1", instanceType, instances, false);
    }

    protected void capacity(String region, String instanceType, int instances, boolean refuseLaunches) {
        expect(api.put("/api/v1/admin/fleet/" + region + "/" + instanceType,
                Map.of("onDemandCapacity", instances, "refuseLaunches", refuseLaunches)), 200);
    }

    /** A job body with per-entry counts, simulated for an hour unless a test changes {@code local}. */
    @SafeVarargs
    protected static Map<String, Object> job(String name, Map<String, Object>... entries) {
        var body = new LinkedHashMap<String, Object>();
        body.put("name", name);
        body.put("kind", "TRAINING");
        body.put("instancePreferences", Arrays.asList(entries));
        body.put("local", Map.of("runtimeSeconds", 3600));
        return body;
    }

    protected static Map<String, Object> entry(String instanceType, int count) {
        return Api.entry(instanceType, count);
    }

    protected JsonNode submit(String team, Map<String, Object> body) {
        return expect(api.post("/api/v1/teams/" + team + "/jobs", body), 201).json();
    }

    protected JsonNode describe(String team, String job) {
        return expect(api.get("/api/v1/teams/" + team + "/jobs/" + job), 200).json();
    }

    /** Waits (up to 10 s, watching every 20 ms) until the job is in one of the statuses. */
    protected JsonNode awaitStatus(String team, String job, String... statuses) {
        var wanted = Set.of(statuses);
        return await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
                .until(() -> describe(team, job), j -> wanted.contains(j.get("status").asString()));
    }

    /** Waits (up to 10 s) for the job's first evaluation and returns its latest. */
    protected JsonNode awaitEvaluation(String team, String job) {
        return await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
                .until(() -> evaluations(team, job), e -> e.size() > 0).get(0);
    }

    /** Each entry's reason in an evaluation, in entry order. */
    protected static List<String> reasons(JsonNode evaluation) {
        var reasons = new ArrayList<String>();
        evaluation.get("entries").forEach(e -> reasons.add(e.get("reason").asString()));
        return reasons;
    }

    protected JsonNode evaluations(String team, String job) {
        return expect(api.get("/api/v1/teams/" + team + "/jobs/" + job + "/evaluations"), 200).json();
    }

    /** The response, when its status is one of those given; else the test fails showing the body. */
    protected static Api.Response expect(Api.Response response, int... statuses) {
        for (int status : statuses) {
            if (response.status() == status) {
                return response;
            }
        }
        throw new AssertionError("expected HTTP " + java.util.Arrays.toString(statuses) + " but got "
                + response.status() + ": " + response.text());
    }

    @AfterEach
    void stopWhatIsLeft() {
        for (String team : teams) {
            for (JsonNode job : expect(api.get("/api/v1/teams/" + team + "/jobs?size=200"), 200).json().get("items")) {
                String name = job.get("name").asString();
                if (LIVE.contains(job.get("status").asString())) {
                    api.post("/api/v1/teams/" + team + "/jobs/" + name + "/stop", Map.of());
                    awaitStatus(team, name, "STOPPED", "COMPLETED", "FAILED");
                }
            }
        }
    }
}
