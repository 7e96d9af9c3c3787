package io.spillover.system;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillover.security.TeamRole;
import io.spillover.support.ApiTest;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * Fuzzes every operation of the service's own OpenAPI document ({@code /v3/api-docs}) with valid, boundary and
 * invalid inputs ({@link RequestFuzzer}), as a platform admin, a member of the team the paths name, and
 * strangers, and checks that it never answers 5xx, that every 4xx is an RFC 9457 problem document, that a
 * refused request stored nothing, and that the service stays healthy. {@code ./mvnw verify} sends a few thousand
 * requests; {@code -Dspillover.fuzz.requests=100000 -Dspillover.fuzz.seed=N} is the long mode. A summary goes
 * to {@code target/fuzz/summary.json}.
 */
@TestPropertySource(properties = "spillover.security.max-failures=1000000000") // bad tokens are part of the input
class ApiFuzzTest extends ApiTest {

    static final String M5 = "ml.m5.xlarge";
    static final int REQUESTS = Integer.getInteger("spillover.fuzz.requests", 3_000);
    static final long SEED = Long.getLong("spillover.fuzz.seed", 20261204L);
    /** Tomcat's limit on a request's line and headers ({@code server.max-http-request-header-size}, 8 KB). */
    static final int HEADER_LIMIT = 8 * 1024;

    /** What a refused request must leave as it was: the rows requests write, without the counters of use. */
    static final String FINGERPRINT = """
            SELECT (SELECT count(*) FROM jobs) || '/' || (SELECT count(*) FROM job_entries)
                || '/' || (SELECT count(*) FROM api_tokens WHERE revoked_at IS NULL)
                || '/' || (SELECT count(*) FROM training_plans) || '/' || (SELECT count(*) FROM training_plan_teams)
                || '/' || (SELECT md5(coalesce(string_agg(name || display_name || weight || queueing
                      || coalesce(max_accelerators, -1) || coalesce(max_concurrent_jobs, -1), ',' ORDER BY name), ''))
                      FROM teams)
                || '/' || (SELECT md5(coalesce(string_agg(team || instance_type || max_instances, ','
                      ORDER BY team, instance_type), '')) FROM team_quotas)
                || '/' || (SELECT md5(coalesce(string_agg(p::text, ',' ORDER BY p.team, p.name), '')) FROM profiles p)
                || '/' || (SELECT md5(coalesce(string_agg(u::text, ',' ORDER BY u.username), '')) FROM users u)
                || '/' || (SELECT md5(coalesce(string_agg(m::text, ',' ORDER BY m.username, m.team), ''))
                      FROM memberships m)
                || '/' || (SELECT md5(coalesce(string_agg(provider || region || instance_type || source || total, ','
                      ORDER BY id), '')) FROM offerings)
                || '/' || (SELECT md5(coalesce(string_agg(team || name || url || array_to_string(events, ',')
                      || job_name_glob, ',' ORDER BY team, name), '')) FROM webhooks)
                || '/' || (SELECT count(*) FROM webhook_deliveries)
                || '/' || (SELECT count(*) FROM what_if_runs)""";

    @Autowired
    JdbcClient jdbc;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5))
            .followRedirects(HttpClient.Redirect.NEVER).build();

    @Test
    void noInputMakesItAnswer5xxOrStoreWhatItRefused() throws Exception {
        capacity(M5, 0);
        String team = team(Map.of(M5, 4));
        submit(team, job("resident", entry(M5, 1)));
        String member = token(team, TeamRole.MEMBER);
        // a hook no job's change matches (its deliveries are only the fuzzer's pings), and a delivery that is over
        expect(api.put("/api/v1/teams/" + team + "/webhooks/fz-hook", Map.of("url", "http://127.0.0.1:9/fuzz",
                "events", List.of("job.pending-timeout"), "jobNameGlob", "never-*")), 201);
        long delivery = expect(api.post("/api/v1/teams/" + team + "/webhooks/fz-hook:test", Map.of()), 202).json()
                .get("id").asLong();
        jdbc.sql("UPDATE webhook_deliveries SET state = 'FAILED', done_at = now() WHERE id = ?").param(delivery)
                .update();
        JsonNode document = expect(api.get("/v3/api-docs"), 200).json();
        Map<String, String> known = Map.ofEntries(Map.entry("team", team), Map.entry("job", "resident"),
                Map.entry("region", "us-east-1"), Map.entry("instanceType", M5), Map.entry("username", "fz-user"),
                Map.entry("profile", "fz-profile"), Map.entry("plan", "fz-plan"), Map.entry("webhook", "fz-hook"),
                Map.entry("delivery", Long.toString(delivery)));
        var fuzzer = new RequestFuzzer(document, SEED, known::get);
        List<RequestFuzzer.Operation> operations = fuzzer.operations();
        assertThat(operations).hasSizeGreaterThan(20);

        var statuses = new TreeMap<Integer, Integer>();
        var kinds = new TreeMap<String, Integer>();
        var covered = new TreeSet<String>();
        var failures = new ArrayList<String>();
        int serverErrors = 0;
        int storedByRejects = 0;
        int closedOnOversized = 0;
        for (int i = 0; i < REQUESTS; i++) {
            RequestFuzzer.Operation operation = operations.get(i % operations.size());
            RequestFuzzer.Request request = fuzzer.next(operation);
            String caller = i % 10 < 7 ? ADMIN_TOKEN : i % 10 < 9 ? member : i % 20 == 9 ? null : "not-a-token";
            String before = jdbc.sql(FINGERPRINT).query(String.class).single();
            HttpResponse<String> response;
            try {
                response = send(request, caller);
            } catch (IOException e) {
                if (request.kind() == RequestFuzzer.Kind.OVERSIZED || request.uri().length() > HEADER_LIMIT) {
                    // the 413 (or, for a request line past Tomcat's header limit, the 400) is sent with the rest of
                    // the request unread and the connection closed while the client still writes: HTTP/1.1 lets the
                    // answer be lost so (a client avoids it with Expect: 100-continue, or a shorter request)
                    closedOnOversized++;
                    if (!jdbc.sql(FINGERPRINT).query(String.class).single().equals(before)) {
                        storedByRejects++;
                        failures.add("no answer, but stored something for " + request.describe());
                    }
                } else {
                    failures.add("no answer (" + e + ") for " + request.describe());
                }
                continue;
            }
            int status = response.statusCode();
            statuses.merge(status, 1, Integer::sum);
            kinds.merge(request.kind().name(), 1, Integer::sum);
            covered.add(operation.toString());
            if (status >= 500) {
                serverErrors++;
                failures.add(status + " for " + request.describe() + "\n  " + abbreviate(response.body()));
            } else if (status >= 400) {
                String problem = problemDocumentTrouble(response);
                if (problem != null) {
                    failures.add(status + " not a problem document (" + problem + ") for " + request.describe());
                }
                String after = jdbc.sql(FINGERPRINT).query(String.class).single();
                if (!after.equals(before)) {
                    storedByRejects++;
                    failures.add(status + " but stored something for " + request.describe());
                }
            }
            if (i % 500 == 499) {
                assertThat(api.get("/actuator/health").status()).as("health after %d requests", i + 1).isEqualTo(200);
            }
        }
        assertThat(api.get("/actuator/health").status()).as("health at the end").isEqualTo(200);

        writeSummary(operations.size(), covered.size(), statuses, kinds, serverErrors, storedByRejects,
                closedOnOversized);
        assertThat(covered).as("operations covered").hasSize(operations.size());
        assertThat(failures).as("requests that broke a rule (seed %d)", SEED).isEmpty();
    }

    private HttpResponse<String> send(RequestFuzzer.Request request, String token) throws Exception {
        HttpRequest.Builder builder;
        try {
            builder = HttpRequest.newBuilder(URI.create("http://localhost:" + port() + request.uri()));
        } catch (IllegalArgumentException e) {
            // a path java.net.URI will not even carry: send it encoded once more
            builder = HttpRequest.newBuilder(URI.create("http://localhost:" + port() + "/api/v1/"
                    + RequestFuzzer.encode(request.uri())));
        }
        builder.timeout(Duration.ofSeconds(30)).header("Accept", "application/json, application/problem+json");
        if (token != null) {
            builder.header("Authorization", "Bearer " + token);
        }
        if (request.body() != null) {
            builder.header("Content-Type", request.contentType());
            builder.method(request.method(), HttpRequest.BodyPublishers.ofString(request.body()));
        } else {
            builder.method(request.method(), HttpRequest.BodyPublishers.noBody());
        }
        return http.send(builder.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Why the answer is not an RFC 9457 problem document, or null when it is one. */
    private static String problemDocumentTrouble(HttpResponse<String> response) {
        String type = response.headers().firstValue("Content-Type").orElse("");
        if (!type.startsWith("application/problem+json")) {
            return "Content-Type " + type;
        }
        try {
            JsonNode problem = RequestFuzzer.JSON.readTree(response.body());
            if (problem.path("status").asInt() != response.statusCode() || !problem.has("title")) {
                return "status or title missing: " + abbreviate(response.body());
            }
        } catch (RuntimeException e) {
            return "unreadable: " + abbreviate(response.body());
        }
        return null;
    }

    private static String abbreviate(String text) {
        return text == null ? "" : text.length() > 400 ? text.substring(0, 400) + "..." : text;
    }

    private void writeSummary(int operations, int covered, Map<Integer, Integer> statuses, Map<String, Integer> kinds,
                              int serverErrors, int storedByRejects, int closedOnOversized) throws IOException {
        var summary = new LinkedHashMap<String, Object>();
        summary.put("seed", SEED);
        summary.put("requests", REQUESTS);
        summary.put("operations", operations);
        summary.put("operationsCovered", covered);
        summary.put("serverErrors", serverErrors);
        summary.put("storedByRejects", storedByRejects);
        summary.put("closedOnOversized", closedOnOversized);
        summary.put("statuses", statuses);
        summary.put("kinds", kinds);
        Path file = Path.of("target", "fuzz", "summary.json");
        Files.createDirectories(file.getParent());
        Files.writeString(file, RequestFuzzer.JSON.writerWithDefaultPrettyPrinter().writeValueAsString(summary));
        System.out.println("[fuzz] " + RequestFuzzer.JSON.writeValueAsString(summary));
    }

    private String token(String team, TeamRole role) {
        return expect(api.post("/api/v1/teams/" + team + "/tokens", Map.of("name", "fuzz " + role, "role", role)), 201)
                .json().get("secret").asString();
    }
}
