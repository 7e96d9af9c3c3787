package io.spillover.audit;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillover.support.Api;
import io.spillover.support.ApiTest;
import io.spillover.support.ConsoleSession;
import java.net.http.HttpResponse;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;
import tools.jackson.databind.JsonNode;

/**
 * Every change, made through the API or a console form, leaves exactly one audit record naming who did what
 * to which team. The changes are the application's own handler mappings: every POST, PUT, PATCH and DELETE
 * of the API and every POST of the console, but the dry runs below; one without a sample here fails the test.
 */
class AuditTrailTest extends ApiTest {

    static final String M5 = "ml.m5.xlarge";
    static final String PASSWORD = "an-auditor-password-42";
    /** A hook no job's change matches: its deliveries are only those the samples make. */
    static final Map<String, Object> QUIET_HOOK = Map.of("url", "http://127.0.0.1:9/audit", "events",
            List.of("job.pending-timeout"), "jobNameGlob", "never-*");
    /** The type the what-if samples' history runs on. */
    static final String WHAT_IF_TYPE = "ml.g5.48xlarge";
    private static Map<String, String> whatIfWindow;

    /** Requests sent as POST that change nothing. */
    static final Set<String> DRY_RUNS = Set.of("POST /api/v1/teams/{team}/placements/explain",
            "POST /teams/{team}/jobs/explain");

    @Autowired
    @Qualifier("requestMappingHandlerMapping")
    RequestMappingHandlerMapping mappings;

    @Autowired
    JdbcClient jdbc;

    @Autowired
    io.spillover.tenancy.DemoTeams demoTeams;

    /** A change to make: its request (path and body made afresh, after any setup), and the record it must leave. */
    record Sample(Supplier<String> path, Supplier<Object> body, String action, Supplier<String> target) {
    }

    /** One record of the audit log as stored. */
    record Row(String actor, String action, String target, String outcome) {
    }

    private String team;

    @TestFactory
    Stream<DynamicTest> everyApiChangeLeavesOneRecordNamingWhoDidWhatToWhichTeam() {
        capacity(M5, 0);
        team = team(Map.of(M5, 4));
        JsonNode admin = expect(api.post("/api/v1/teams/" + team + "/tokens",
                Map.of("name", "team admin", "role", "TEAM_ADMIN")), 201).json();
        Api teamAdmin = api.as(admin.get("secret").asString());
        String teamActor = "token:" + admin.get("id").asString();
        Map<String, Sample> samples = apiSamples();

        Set<String> changes = changes(true);
        assertThat(samples.keySet()).as("samples of API changes that exist").isSubsetOf(changes);
        return changes.stream().map(change -> DynamicTest.dynamicTest(change, () -> {
            Sample sample = samples.get(change);
            assertThat(sample).as("a sample request for " + change + " in AuditTrailTest.apiSamples()").isNotNull();
            boolean teamScoped = change.contains(" /api/v1/teams/");
            String path = sample.path().get();
            Object body = sample.body().get();
            long before = lastRecord();

            Api.Response response = call(teamScoped ? teamAdmin : api, change.substring(0, change.indexOf(' ')),
                    path, body);

            assertThat(response.status()).as(change + ": " + response.text()).isBetween(200, 299);
            assertThat(recordsAfter(before)).containsExactly(new Row(teamScoped ? teamActor : "token:bootstrap",
                    sample.action(), sample.target().get(), "done"));
        }));
    }

    @TestFactory
    Stream<DynamicTest> everyConsoleFormLeavesOneRecordNamingWhoDidWhatToWhichTeam() {
        capacity(M5, 0);
        team = team(Map.of(M5, 4));
        String person = "auditor-" + team;
        ConsoleSession browser = signedIn(person, true);
        String csrf = browser.csrf("/admin/teams");
        Map<String, Sample> samples = consoleSamples();

        Set<String> forms = changes(false);
        assertThat(samples.keySet()).as("samples of console forms that exist").isSubsetOf(forms);
        return forms.stream().map(form -> DynamicTest.dynamicTest(form, () -> {
            Sample sample = samples.get(form);
            assertThat(sample).as("a sample form for " + form + " in AuditTrailTest.consoleSamples()").isNotNull();
            String path = sample.path().get();
            @SuppressWarnings("unchecked")
            var fields = new HashMap<>((Map<String, String>) sample.body().get());
            fields.put("_csrf", csrf);
            long before = lastRecord();

            HttpResponse<String> response = browser.post(path, fields);

            assertThat(response.statusCode()).as(form + " redirects after its change: " + response.body())
                    .isEqualTo(302);
            assertThat(recordsAfter(before)).containsExactly(new Row(person, sample.action(), sample.target().get(),
                    "done"));
        }));
    }

    @Test
    void changingATeamsQuotaInTheConsoleShowsInTheAuditLogWithThePersonsName() {
        team = team(Map.of(M5, 1));
        String person = "quota-keeper-" + team;
        ConsoleSession browser = signedIn(person, true);

        browser.post("/admin/teams", Map.of("name", team, "displayName", "Team " + team, "queueing",
                "BEST_EFFORT_FIFO", "limits", M5 + "=3", "_csrf", browser.csrf("/admin/teams")));

        JsonNode newest = expect(api.get("/api/v1/admin/audit?size=1"), 200).json().get(0);
        assertThat(newest.get("actor").asString()).isEqualTo(person);
        assertThat(newest.get("action").asString()).isEqualTo("save team and quotas");
        assertThat(newest.get("target").asString()).isEqualTo("teams/" + team);
        assertThat(newest.get("outcome").asString()).isEqualTo("done");
        assertThat(expect(api.get("/api/v1/admin/teams/" + team), 200).json().at("/quotas/instanceLimits/" + M5)
                .asInt()).isEqualTo(3);
    }

    @Test
    void aChangeRefusedInTheConsoleOrTheApiLeavesOneRecordSayingSo() {
        team = team(Map.of(M5, 1));
        String member = "member-" + team;
        ConsoleSession browser = signedIn(member, false);
        long before = lastRecord();

        HttpResponse<String> refused = browser.post("/admin/teams", Map.of("name", team, "displayName", "Mine",
                "queueing", "STRICT_FIFO", "limits", M5 + "=100", "_csrf", browser.csrf("/teams/" + team + "/jobs")));

        assertThat(refused.statusCode()).isEqualTo(403);
        assertThat(recordsAfter(before)).containsExactly(new Row(member, "save team and quotas", "teams/" + team,
                "refused"));

        String token = expect(api.post("/api/v1/teams/" + team + "/tokens", Map.of("name", "ci", "role", "MEMBER")),
                201).json().get("secret").asString();
        before = lastRecord();
        assertThat(api.as(token).put("/api/v1/admin/teams/" + team + "/quotas", Map.of("instanceLimits",
                Map.of(M5, 100))).status()).isEqualTo(403);
        assertThat(recordsAfter(before)).extracting(Row::outcome).containsExactly("refused");
    }

    @Test
    void aChangeThatBreaksRulesLeavesOneRecordAndNoChange() {
        team = team(Map.of(M5, 1));
        long before = lastRecord();

        assertThat(api.put("/api/v1/admin/teams/" + team + "/quotas", Map.of("instanceLimits",
                Map.of("ml.nonsense", 1))).status()).isEqualTo(400);

        assertThat(recordsAfter(before)).containsExactly(new Row("token:bootstrap", "set quotas",
                "teams/" + team + "/quotas", "invalid"));
    }

    private Map<String, Sample> apiSamples() {
        String a = "/api/v1/teams/" + team;
        var profile = Map.of("instanceCount", 1, "instancePreferences", List.of(Map.of("instanceType", M5)));
        var plan = new HashMap<String, Object>(Map.of("instanceType", "ml.p4d.24xlarge", "instanceCount", 1,
                "startTime", "2030-01-01T00:00:00Z", "endTime", "2030-02-01T00:00:00Z", "teams", List.of(team)));
        var samples = new TreeMap<String, Sample>();
        samples.put("POST /api/v1/teams/{team}/jobs", new Sample(() -> a + "/jobs",
                () -> job("audited-" + System.nanoTime(), entry(M5, 1)), "submit job", () -> "teams/" + team + "/jobs"));
        samples.put("POST /api/v1/teams/{team}/jobs:batch", new Sample(() -> a + "/jobs:batch",
                () -> Map.of("jobs", List.of(job("audited-batch-a-" + System.nanoTime(), entry(M5, 1)),
                        job("audited-batch-b-" + System.nanoTime(), entry(M5, 1)))),
                "submit jobs", () -> "teams/" + team + "/jobs"));
        samples.put("POST /api/v1/teams/{team}/jobs:sagemaker", new Sample(() -> a + "/jobs:sagemaker",
                () -> sageMakerBody("audited-sm-" + System.nanoTime()), "submit job", () -> "teams/" + team + "/jobs"));
        var stopped = new String[1];
        samples.put("POST /api/v1/teams/{team}/jobs/{job}/stop", new Sample(() -> {
            stopped[0] = "to-stop-" + System.nanoTime();
            submit(team, job(stopped[0], entry(M5, 1)));
            return a + "/jobs/" + stopped[0] + "/stop";
        }, Map::of, "stop job", () -> "teams/" + team + "/jobs/" + stopped[0]));
        samples.put("POST /api/v1/teams/{team}/tokens", new Sample(() -> a + "/tokens",
                () -> Map.of("name", "ci", "role", "MEMBER"), "issue token", () -> "teams/" + team + "/tokens"));
        var token = new String[1];
        samples.put("DELETE /api/v1/teams/{team}/tokens/{id}", new Sample(() -> {
            token[0] = tokenId(a + "/tokens", Map.of("name", "doomed", "role", "MEMBER"));
            return a + "/tokens/" + token[0];
        }, () -> null, "revoke token", () -> "teams/" + team + "/tokens/" + token[0]));
        samples.put("PUT /api/v1/teams/{team}/profiles/{profile}", new Sample(() -> a + "/profiles/cpu",
                () -> profile, "save profile", () -> "teams/" + team + "/profiles/cpu"));
        samples.put("DELETE /api/v1/teams/{team}/profiles/{profile}", new Sample(() -> {
            expect(api.put(a + "/profiles/doomed", profile), 201, 200);
            return a + "/profiles/doomed";
        }, () -> null, "delete profile", () -> "teams/" + team + "/profiles/doomed"));
        samples.put("PUT /api/v1/admin/teams/{team}", new Sample(() -> "/api/v1/admin/teams/" + team,
                () -> Map.of("displayName", "Audited"), "save team", () -> "teams/" + team));
        samples.put("PUT /api/v1/admin/teams/{team}/quotas", new Sample(() -> "/api/v1/admin/teams/" + team + "/quotas",
                () -> Map.of("instanceLimits", Map.of(M5, 4)), "set quotas", () -> "teams/" + team + "/quotas"));
        samples.put("PUT /api/v1/admin/teams/{team}/sagemaker", new Sample(() -> "/api/v1/admin/teams/" + team
                + "/sagemaker", () -> Map.of("roleArn", "arn:aws:iam::111122223333:role/audited"),
                "set sagemaker settings", () -> "teams/" + team + "/sagemaker"));
        samples.put("PUT /api/v1/admin/training-plans/{plan}", new Sample(() -> "/api/v1/admin/training-plans/audited",
                () -> plan, "save training plan", () -> "training-plans/audited"));
        var created = new String[1];
        samples.put("POST /api/v1/admin/training-plans", new Sample(() -> "/api/v1/admin/training-plans", () -> {
            created[0] = "audited-" + System.nanoTime();
            var body = new HashMap<>(plan);
            body.put("name", created[0]);
            return body;
        }, "register training plan", () -> "training-plans/" + created[0]));
        samples.put("POST /api/v1/admin/training-plans/sync", new Sample(() -> "/api/v1/admin/training-plans/sync",
                () -> null, "sync training plans", () -> "training-plans"));
        samples.put("POST /api/v1/admin/capacity/refresh", new Sample(() -> "/api/v1/admin/capacity/refresh",
                () -> null, "refresh capacity", () -> "capacity"));
        samples.put("PUT /api/v1/admin/fleet/{region}/{instanceType}", new Sample(
                () -> "/api/v1/admin/fleet/us-east-1/" + M5, () -> Map.of("onDemandCapacity", 0),
                "set on-demand capacity", () -> "fleet/us-east-1/" + M5));
        samples.put("POST /api/v1/admin/tokens", new Sample(() -> "/api/v1/admin/tokens",
                () -> Map.of("name", "automation"), "issue platform token", () -> "tokens"));
        var platformToken = new String[1];
        samples.put("DELETE /api/v1/admin/tokens/{id}", new Sample(() -> {
            platformToken[0] = tokenId("/api/v1/admin/tokens", Map.of("name", "doomed"));
            return "/api/v1/admin/tokens/" + platformToken[0];
        }, () -> null, "revoke platform token", () -> "tokens/" + platformToken[0]));
        samples.put("PUT /api/v1/teams/{team}/webhooks/{webhook}", new Sample(() -> a + "/webhooks/audited",
                () -> QUIET_HOOK, "save webhook", () -> "teams/" + team + "/webhooks/audited"));
        samples.put("DELETE /api/v1/teams/{team}/webhooks/{webhook}", new Sample(() -> {
            expect(api.put(a + "/webhooks/doomed", QUIET_HOOK), 201, 200);
            return a + "/webhooks/doomed";
        }, () -> null, "delete webhook", () -> "teams/" + team + "/webhooks/doomed"));
        samples.put("POST /api/v1/teams/{team}/webhooks/{webhook}:test", new Sample(() -> {
            expect(api.put(a + "/webhooks/pinged", QUIET_HOOK), 201, 200);
            return a + "/webhooks/pinged:test";
        }, Map::of, "test webhook", () -> "teams/" + team + "/webhooks/pinged"));
        var delivery = new long[1];
        samples.put("POST /api/v1/teams/{team}/webhooks/{webhook}/deliveries/{delivery}:redeliver", new Sample(() -> {
            delivery[0] = failedDelivery(a, "resent");
            return a + "/webhooks/resent/deliveries/" + delivery[0] + ":redeliver";
        }, Map::of, "redeliver webhook delivery", () -> "teams/" + team + "/webhooks/resent/deliveries/" + delivery[0]));
        samples.put("POST /api/v1/admin/what-if", new Sample(() -> "/api/v1/admin/what-if", () -> Map.of(
                "input", whatIfWindow(), "edits", List.of(Map.of("kind", "offering-capacity", "region", "us-east-1",
                        "instanceType", WHAT_IF_TYPE, "instances", 2))), "start what-if", () -> "what-if"));
        samples.put("POST /api/v1/admin/demo", new Sample(this::demoToStart, () -> null, "start demo", () -> "demo"));
        samples.put("POST /api/v1/admin/demo:stop", new Sample(() -> "/api/v1/admin/demo:stop", () -> null, "stop demo",
                () -> "demo"));
        String user = "audited-" + team;
        samples.put("PUT /api/v1/admin/users/{username}", new Sample(() -> "/api/v1/admin/users/" + user,
                () -> Map.of("displayName", "Audited", "password", PASSWORD), "save user", () -> "users/" + user));
        samples.put("PUT /api/v1/admin/users/{username}/memberships/{team}", new Sample(() -> {
            ensureUser(user);
            return "/api/v1/admin/users/" + user + "/memberships/" + team;
        }, () -> Map.of("role", "MEMBER"), "set membership", () -> "users/" + user + "/memberships/" + team));
        samples.put("DELETE /api/v1/admin/users/{username}/memberships/{team}", new Sample(() -> {
            ensureUser(user);
            expect(api.put("/api/v1/admin/users/" + user + "/memberships/" + team, Map.of("role", "MEMBER")), 200);
            return "/api/v1/admin/users/" + user + "/memberships/" + team;
        }, () -> null, "remove membership", () -> "users/" + user + "/memberships/" + team));
        return samples;
    }

    /** The demo's path, once the demo teams it runs as are there and no demo runs. */
    private String demoToStart() {
        demoTeams.seed();
        expect(api.post("/api/v1/admin/demo:stop", Map.of()), 200);
        return "/api/v1/admin/demo";
    }

    /** A demo a sample started is not left running for the tests after this one. */
    @org.junit.jupiter.api.AfterEach
    void stopTheDemo() {
        api.post("/api/v1/admin/demo:stop", Map.of());
    }

    /** A window of the platform's history in which one job ran, on a type of its own; made once. */
    private Map<String, String> whatIfWindow() {
        if (whatIfWindow == null) {
            capacity(WHAT_IF_TYPE, 1);
            String ran = team(Map.of(WHAT_IF_TYPE, 1));
            java.time.Instant from = java.time.Instant.now();
            var body = new HashMap<>(job("audited-history", entry(WHAT_IF_TYPE, 1)));
            body.put("local", Map.of("runtimeSeconds", 1));
            submit(ran, body);
            awaitStatus(ran, "audited-history", "COMPLETED");
            whatIfWindow = Map.of("from", from.toString(), "to", java.time.Instant.now().toString());
        }
        return whatIfWindow;
    }

    /** A CreateTrainingJob body as boto3 sends it. */
    static Map<String, Object> sageMakerBody(String name) {
        return Map.of("TrainingJobName", name, "AlgorithmSpecification", Map.of("TrainingImage", "busybox"),
                "ResourceConfig", Map.of("InstancePreferences", List.of(Map.of("InstanceType", M5, "InstanceCount", 1))),
                "CheckpointConfig", Map.of("S3Uri", "s3://bucket/checkpoints"));
    }

    private Map<String, Sample> consoleSamples() {
        String t = "/teams/" + team;
        var samples = new TreeMap<String, Sample>();
        String newTeam = "audited-" + team;
        samples.put("POST /admin/teams", form("/admin/teams", Map.of("name", newTeam, "displayName", "Audited",
                "queueing", "BEST_EFFORT_FIFO", "limits", M5 + "=2"), "save team and quotas", "teams/" + newTeam));
        String user = "console-" + team;
        samples.put("POST /admin/users", form("/admin/users", Map.of("username", user, "displayName", "Console",
                "password", PASSWORD), "save user", "users/" + user));
        samples.put("POST /admin/users/{username}/memberships", new Sample(() -> {
            ensureUser(user);
            return "/admin/users/" + user + "/memberships";
        }, () -> Map.of("team", team, "role", "MEMBER"), "set membership", () -> "users/" + user + "/memberships/" + team));
        samples.put("POST /admin/plans", form("/admin/plans", Map.of("name", "console-plan", "instanceType",
                "ml.p4d.24xlarge", "instanceCount", "1", "startTime", "2030-01-01T00:00:00Z", "endTime",
                "2030-02-01T00:00:00Z", "teamNames", team), "save training plan", "training-plans/console-plan"));
        String capacity = "capacity|us-east-1|" + WHAT_IF_TYPE + "|on-demand";
        samples.put("POST /admin/what-if", new Sample(() -> "/admin/what-if", () -> {
            Map<String, String> window = whatIfWindow();
            return Map.of("source", "history", "from", window.get("from"), "to", window.get("to"), capacity, "2");
        }, "start what-if", () -> "what-if"));
        samples.put("POST /admin/demo", new Sample(() -> demoToStart().replace("/api/v1", ""), Map::of, "start demo",
                () -> "demo"));
        samples.put("POST /admin/demo/stop", form("/admin/demo/stop", Map.of(), "stop demo", "demo"));
        samples.put("POST /admin/fleet", form("/admin/fleet", Map.of("region", "us-east-1", "instanceType", M5,
                "capacity", "0"), "set on-demand capacity", "fleet/us-east-1/" + M5));
        samples.put("POST /teams/{team}/profiles", form(t + "/profiles", Map.of("name", "gpu", "entries", M5 + " 1"),
                "save profile", "teams/" + team + "/profiles/gpu"));
        samples.put("POST /teams/{team}/profiles/{profile}/delete", new Sample(() -> {
            expect(api.put("/api/v1" + t + "/profiles/doomed", Map.of("instanceCount", 1, "instancePreferences",
                    List.of(Map.of("instanceType", M5)))), 201, 200);
            return t + "/profiles/doomed/delete";
        }, Map::of, "delete profile", () -> "teams/" + team + "/profiles/doomed"));
        samples.put("POST /teams/{team}/tokens", form(t + "/tokens", Map.of("name", "ci", "role", "MEMBER"),
                "issue token", "teams/" + team + "/tokens"));
        var token = new String[1];
        samples.put("POST /teams/{team}/tokens/{id}/revoke", new Sample(() -> {
            token[0] = tokenId("/api/v1" + t + "/tokens", Map.of("name", "doomed", "role", "MEMBER"));
            return t + "/tokens/" + token[0] + "/revoke";
        }, Map::of, "revoke token", () -> "teams/" + team + "/tokens/" + token[0]));
        samples.put("POST /teams/{team}/jobs", form(t + "/jobs", Map.of("name", "from-console", "kind", "TRAINING",
                "entries[0].instanceType", M5, "entries[0].instanceCount", "1", "runtimeSeconds", "3600"),
                "submit job", "teams/" + team + "/jobs"));
        samples.put("POST /teams/{team}/webhooks", form(t + "/webhooks", Map.of("name", "console-hook", "url",
                "http://127.0.0.1:9/console", "events", "job.pending-timeout", "jobNameGlob", "never-*"),
                "save webhook", "teams/" + team + "/webhooks/console-hook"));
        samples.put("POST /teams/{team}/webhooks/{webhook}/delete", new Sample(() -> {
            expect(api.put("/api/v1" + t + "/webhooks/console-doomed", QUIET_HOOK), 201, 200);
            return t + "/webhooks/console-doomed/delete";
        }, Map::of, "delete webhook", () -> "teams/" + team + "/webhooks/console-doomed"));
        samples.put("POST /teams/{team}/webhooks/{webhook}/test", new Sample(() -> {
            expect(api.put("/api/v1" + t + "/webhooks/console-pinged", QUIET_HOOK), 201, 200);
            return t + "/webhooks/console-pinged/test";
        }, Map::of, "test webhook", () -> "teams/" + team + "/webhooks/console-pinged"));
        var delivery = new long[1];
        samples.put("POST /teams/{team}/webhooks/{webhook}/deliveries/{delivery}/redeliver", new Sample(() -> {
            delivery[0] = failedDelivery("/api/v1" + t, "console-resent");
            return t + "/webhooks/console-resent/deliveries/" + delivery[0] + "/redeliver";
        }, Map::of, "redeliver webhook delivery",
                () -> "teams/" + team + "/webhooks/console-resent/deliveries/" + delivery[0]));
        var stopped = new String[1];
        samples.put("POST /teams/{team}/jobs/{job}/stop", new Sample(() -> {
            stopped[0] = "console-stop-" + System.nanoTime();
            submit(team, job(stopped[0], entry(M5, 1)));
            return t + "/jobs/" + stopped[0] + "/stop";
        }, Map::of, "stop job", () -> "teams/" + team + "/jobs/" + stopped[0]));
        return samples;
    }

    /** The changes the application serves: the API's ({@code api}) or the console's, each as {@code METHOD pattern}. */
    private Set<String> changes(boolean api) {
        var changes = new TreeSet<String>();
        mappings.getHandlerMethods().forEach((info, handler) -> {
            for (String pattern : info.getPatternValues()) {
                // SageMaker's own API is neither: its changes' records are SageMakerOperationsTest's
                if (pattern.startsWith("/api/") != api || pattern.startsWith("/v3/") || pattern.startsWith("/sagemaker")) {
                    continue;
                }
                for (RequestMethod method : info.getMethodsCondition().getMethods()) {
                    String change = method.name() + " " + pattern;
                    if (method != RequestMethod.GET && method != RequestMethod.HEAD && !DRY_RUNS.contains(change)) {
                        changes.add(change);
                    }
                }
            }
        });
        assertThat(changes).as("changes found").hasSizeGreaterThan(api ? 15 : 10);
        return changes;
    }

    private ConsoleSession signedIn(String username, boolean platformAdmin) {
        expect(api.put("/api/v1/admin/users/" + username, Map.of("displayName", username, "password", PASSWORD,
                "platformAdmin", platformAdmin)), 201);
        expect(api.put("/api/v1/admin/users/" + username + "/memberships/" + team, Map.of("role", "MEMBER")), 200);
        ConsoleSession browser = new ConsoleSession(port());
        assertThat(browser.signIn(username, PASSWORD).headers().firstValue("Location").orElseThrow())
                .doesNotContain("error");
        return browser;
    }

    private void ensureUser(String username) {
        expect(api.put("/api/v1/admin/users/" + username, Map.of("displayName", username, "password", PASSWORD)),
                200, 201);
    }

    /** A ping to a quiet hook of the team, marked failed so that it can be sent again; its id. */
    private long failedDelivery(String teamPath, String hook) {
        expect(api.put(teamPath + "/webhooks/" + hook, QUIET_HOOK), 201, 200);
        long id = expect(api.post(teamPath + "/webhooks/" + hook + ":test", Map.of()), 202).json().get("id").asLong();
        jdbc.sql("UPDATE webhook_deliveries SET state = 'FAILED', done_at = now() WHERE id = ?").param(id).update();
        return id;
    }

    private String tokenId(String path, Map<String, Object> request) {
        return expect(api.post(path, request), 201).json().get("id").asString();
    }

    private static Sample form(String path, Map<String, String> fields, String action, String target) {
        return new Sample(() -> path, () -> fields, action, () -> target);
    }

    private long lastRecord() {
        return jdbc.sql("SELECT coalesce(max(id), 0) FROM audit_log").query(Long.class).single();
    }

    private List<Row> recordsAfter(long id) {
        return jdbc.sql("SELECT actor, action, target, outcome FROM audit_log WHERE id > ? ORDER BY id").param(id)
                .query((rs, n) -> new Row(rs.getString("actor"), rs.getString("action"), rs.getString("target"),
                        rs.getString("outcome")))
                .list();
    }

    private static Api.Response call(Api client, String method, String path, Object body) {
        return switch (method) {
            case "POST" -> client.post(path, body == null ? Map.of() : body);
            case "PUT" -> client.put(path, body == null ? Map.of() : body);
            case "DELETE" -> client.delete(path);
            default -> throw new AssertionError("no way to call " + method + " " + path);
        };
    }
}
