package io.spillover.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillover.support.Api;
import io.spillover.support.ApiTest;
import io.spillover.system.Access;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

/**
 * Walks every operation the application serves under /api/v1, as its own handler mappings list them,
 * with: no token (401); a member of another team (404 for team-scoped operations); a member where a team
 * admin or platform admin is needed (403); and the right role (2xx). An operation without an access rule
 * or without a sample request here fails the test, so a new endpoint cannot slip through unchecked.
 */
class IsolationTest extends ApiTest {

    static final String M5 = "ml.m5.xlarge";

    @Autowired
    @Qualifier("requestMappingHandlerMapping")
    RequestMappingHandlerMapping mappings;

    /** One operation as the application serves it. */
    record Operation(String method, String pattern, Access.Level level) {
        @Override
        public String toString() {
            return method + " " + pattern;
        }
    }

    /** A request that the right caller can make succeed; path and body are made afresh for each call. */
    record Sample(Supplier<String> path, Supplier<Object> body) {
    }

    private String teamA;
    private String teamB;
    private Api memberA;
    private Api adminA;
    private Api memberB;
    private Api nobody;

    @TestFactory
    Stream<DynamicTest> everyOperationRefusesStrangersAndServesItsRole() {
        capacity(M5, 0);
        teamA = team(Map.of(M5, 4));
        teamB = team(Map.of(M5, 4));
        memberA = api.as(token(teamA, TeamRole.MEMBER));
        adminA = api.as(token(teamA, TeamRole.TEAM_ADMIN));
        memberB = api.as(token(teamB, TeamRole.MEMBER));
        nobody = api.as(null);
        submit(teamA, job("resident", entry(M5, 1)));
        Map<String, Sample> samples = samples();

        List<Operation> operations = operations();
        assertThat(operations).hasSizeGreaterThan(20);
        return operations.stream().map(operation -> DynamicTest.dynamicTest(operation.toString(), () -> {
            Sample sample = samples.get(operation.toString());
            assertThat(sample).as("a sample request for " + operation + " in IsolationTest.samples()").isNotNull();
            assertThat(call(nobody, operation, sample).status()).as("no token").isEqualTo(401);
            switch (operation.level()) {
                case AUTHENTICATED -> expect2xx(memberA, operation, sample);
                case MEMBER -> {
                    assertThat(call(memberB, operation, sample).status()).as("another team's member").isEqualTo(404);
                    expect2xx(memberA, operation, sample);
                }
                case TEAM_ADMIN -> {
                    assertThat(call(memberB, operation, sample).status()).as("another team's member").isEqualTo(404);
                    assertThat(call(memberA, operation, sample).status()).as("a member").isEqualTo(403);
                    expect2xx(adminA, operation, sample);
                }
                case PLATFORM_ADMIN -> {
                    assertThat(call(memberA, operation, sample).status()).as("a member").isEqualTo(403);
                    assertThat(call(adminA, operation, sample).status()).as("a team admin").isEqualTo(403);
                    expect2xx(api, operation, sample);
                }
            }
        }));
    }

    @Test
    void aMemberSeesOnlyTheOfferingsTheirTeamMayUse() {
        capacity(M5, 1);
        capacity("ml.g5.12xlarge", 1);
        String team = team(Map.of(M5, 1));
        Api member = api.as(token(team, TeamRole.MEMBER));

        List<String> types = new ArrayList<>();
        expect(member.get("/api/v1/capacity"), 200).json().forEach(o -> types.add(o.get("instanceType").asString()));

        assertThat(types).containsExactly(M5);
        assertThat(api.get("/api/v1/capacity").json().size()).isGreaterThan(1);
    }

    private Map<String, Sample> samples() {
        String a = "/api/v1/teams/" + teamA;
        var jobBody = job("sampled", entry(M5, 1));
        var samples = new TreeMap<String, Sample>();
        samples.put("GET /api/v1/me", fixed("/api/v1/me", null));
        samples.put("GET /api/v1/capacity", fixed("/api/v1/capacity", null));
        samples.put("GET /api/v1/catalog/instance-types", fixed("/api/v1/catalog/instance-types", null));
        samples.put("POST /api/v1/teams/{team}/jobs", new Sample(() -> a + "/jobs",
                () -> job("job-" + System.nanoTime(), entry(M5, 1))));
        samples.put("POST /api/v1/teams/{team}/jobs:batch", new Sample(() -> a + "/jobs:batch",
                () -> Map.of("jobs", List.of(job("batched-" + System.nanoTime(), entry(M5, 1))))));
        samples.put("POST /api/v1/teams/{team}/jobs:sagemaker", new Sample(() -> a + "/jobs:sagemaker",
                () -> Map.of("TrainingJobName", "sm-" + System.nanoTime(), "ResourceConfig",
                        Map.of("InstanceType", M5, "InstanceCount", 1))));
        samples.put("GET /api/v1/teams/{team}/jobs", fixed(a + "/jobs", null));
        samples.put("GET /api/v1/teams/{team}/jobs/{job}", fixed(a + "/jobs/resident", null));
        samples.put("GET /api/v1/teams/{team}/jobs/{job}/evaluations", fixed(a + "/jobs/resident/evaluations", null));
        samples.put("GET /api/v1/teams/{team}/jobs/{job}/logs", fixed(a + "/jobs/resident/logs", null));
        samples.put("POST /api/v1/teams/{team}/jobs/{job}/stop", new Sample(() -> {
            String name = "to-stop-" + System.nanoTime();
            submit(teamA, job(name, entry(M5, 1)));
            return a + "/jobs/" + name + "/stop";
        }, Map::of));
        samples.put("POST /api/v1/teams/{team}/placements/explain", fixed(a + "/placements/explain", jobBody));
        samples.put("POST /api/v1/teams/{team}/tokens", fixed(a + "/tokens", Map.of("name", "ci", "role", "MEMBER")));
        samples.put("GET /api/v1/teams/{team}/tokens", fixed(a + "/tokens", null));
        samples.put("DELETE /api/v1/teams/{team}/tokens/{id}", new Sample(() -> a + "/tokens/"
                + expect(api.post(a + "/tokens", Map.of("name", "doomed", "role", "MEMBER")), 201).json()
                        .get("id").asString(), () -> null));
        samples.put("GET /api/v1/catalog/equivalents", fixed("/api/v1/catalog/equivalents?instanceType="
                + "ml.p4d.24xlarge&instanceCount=2", null));
        var profile = Map.of("instanceCount", 1, "instancePreferences", List.of(Map.of("instanceType", M5)));
        samples.put("GET /api/v1/teams/{team}/profiles", fixed(a + "/profiles", null));
        samples.put("PUT /api/v1/teams/{team}/profiles/{profile}", fixed(a + "/profiles/cpu", profile));
        samples.put("GET /api/v1/teams/{team}/profiles/{profile}", new Sample(() -> {
            expect(api.put(a + "/profiles/kept", profile), 201, 200);
            return a + "/profiles/kept";
        }, () -> null));
        samples.put("DELETE /api/v1/teams/{team}/profiles/{profile}", new Sample(() -> {
            expect(api.put(a + "/profiles/doomed", profile), 201, 200);
            return a + "/profiles/doomed";
        }, () -> null));
        var plan = new java.util.HashMap<String, Object>(Map.of("instanceType", "ml.p4d.24xlarge",
                "instanceCount", 1, "startTime", "2030-01-01T00:00:00Z", "endTime", "2030-02-01T00:00:00Z",
                "teams", List.of(teamA)));
        samples.put("GET /api/v1/teams/{team}/training-plans", fixed(a + "/training-plans", null));
        samples.put("GET /api/v1/admin/training-plans", fixed("/api/v1/admin/training-plans", null));
        samples.put("PUT /api/v1/admin/training-plans/{plan}", fixed("/api/v1/admin/training-plans/iso-plan", plan));
        samples.put("POST /api/v1/admin/training-plans", new Sample(() -> "/api/v1/admin/training-plans", () -> {
            var created = new java.util.HashMap<>(plan);
            created.put("name", "iso-" + System.nanoTime());
            return created;
        }));
        samples.put("POST /api/v1/admin/training-plans/sync", fixed("/api/v1/admin/training-plans/sync", null));
        samples.put("GET /api/v1/admin/teams", fixed("/api/v1/admin/teams", null));
        samples.put("GET /api/v1/admin/teams/{team}", fixed("/api/v1/admin/teams/" + teamA, null));
        samples.put("PUT /api/v1/admin/teams/{team}", fixed("/api/v1/admin/teams/" + teamA,
                Map.of("displayName", "Team A")));
        samples.put("PUT /api/v1/admin/teams/{team}/quotas", fixed("/api/v1/admin/teams/" + teamA + "/quotas",
                Map.of("instanceLimits", Map.of(M5, 4))));
        samples.put("GET /api/v1/admin/teams/{team}/sagemaker", fixed("/api/v1/admin/teams/" + teamA + "/sagemaker",
                null));
        samples.put("PUT /api/v1/admin/teams/{team}/sagemaker", fixed("/api/v1/admin/teams/" + teamA + "/sagemaker",
                Map.of("outputS3Uri", "s3://team-a/out")));
        samples.put("POST /api/v1/admin/capacity/refresh", fixed("/api/v1/admin/capacity/refresh", null));
        samples.put("PUT /api/v1/admin/fleet/{region}/{instanceType}", fixed("/api/v1/admin/fleet/us-east-1/" + M5,
                Map.of("onDemandCapacity", 0)));
        samples.put("GET /api/v1/admin/audit", fixed("/api/v1/admin/audit", null));
        samples.put("POST /api/v1/admin/tokens", fixed("/api/v1/admin/tokens", Map.of("name", "automation")));
        samples.put("GET /api/v1/admin/tokens", fixed("/api/v1/admin/tokens", null));
        samples.put("DELETE /api/v1/admin/tokens/{id}", new Sample(() -> "/api/v1/admin/tokens/"
                + expect(api.post("/api/v1/admin/tokens", Map.of("name", "doomed")), 201).json().get("id").asString(),
                () -> null));
        samples.put("GET /api/v1/admin/users", fixed("/api/v1/admin/users", null));
        samples.put("PUT /api/v1/admin/users/{username}", fixed("/api/v1/admin/users/iso-user",
                Map.of("displayName", "Iso", "password", "a-long-enough-password")));
        samples.put("GET /api/v1/admin/users/{username}", new Sample(() -> {
            ensureUser();
            return "/api/v1/admin/users/iso-user";
        }, () -> null));
        samples.put("PUT /api/v1/admin/users/{username}/memberships/{team}", new Sample(() -> {
            ensureUser();
            return "/api/v1/admin/users/iso-user/memberships/" + teamA;
        }, () -> Map.of("role", "MEMBER")));
        samples.put("DELETE /api/v1/admin/users/{username}/memberships/{team}", new Sample(() -> {
            ensureUser();
            expect(api.put("/api/v1/admin/users/iso-user/memberships/" + teamA, Map.of("role", "MEMBER")), 200);
            return "/api/v1/admin/users/iso-user/memberships/" + teamA;
        }, () -> null));
        return samples;
    }

    private void ensureUser() {
        api.put("/api/v1/admin/users/iso-user", Map.of("displayName", "Iso", "password", "a-long-enough-password"));
    }

    private Api.Response call(Api client, Operation operation, Sample sample) {
        String path = sample.path().get();
        Object body = sample.body().get();
        return switch (operation.method()) {
            case "GET" -> client.get(path);
            case "POST" -> client.post(path, body == null ? Map.of() : body);
            case "PUT" -> client.put(path, body == null ? Map.of() : body);
            case "DELETE" -> client.delete(path);
            default -> throw new AssertionError("no way to call " + operation);
        };
    }

    private void expect2xx(Api client, Operation operation, Sample sample) {
        Api.Response response = call(client, operation, sample);
        assertThat(response.status()).as("the right role on " + operation + ": " + response.text()).isBetween(200, 299);
    }

    private List<Operation> operations() {
        var operations = new ArrayList<Operation>();
        mappings.getHandlerMethods().forEach((info, handler) -> {
            for (String pattern : info.getPatternValues()) {
                if (!pattern.startsWith("/api/v1/")) {
                    continue;
                }
                Access access = handler.getMethodAnnotation(Access.class);
                assertThat(access).as(describe(handler) + " needs an @Access rule").isNotNull();
                for (RequestMethod method : info.getMethodsCondition().getMethods()) {
                    operations.add(new Operation(method.name(), pattern, access.value()));
                }
            }
        });
        operations.sort(java.util.Comparator.comparing(Operation::toString));
        return operations;
    }

    private static String describe(HandlerMethod handler) {
        return handler.getBeanType().getSimpleName() + "." + handler.getMethod().getName();
    }

    private static Sample fixed(String path, Object body) {
        return new Sample(() -> path, () -> body);
    }

    private String token(String team, TeamRole role) {
        return expect(api.post("/api/v1/teams/" + team + "/tokens", Map.of("name", role + " of " + team,
                "role", role.name())), 201).json().get("secret").asString();
    }
}
