package io.spillover.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.spillover.support.Api;
import io.spillover.support.ApiTest;
import io.spillover.support.ConsoleSession;
import io.spillover.support.SignedCalls;
import io.spillover.system.Access;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.TestPropertySource;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;
import tools.jackson.databind.JsonNode;

/**
 * The isolation matrix. Every operation of the service's own OpenAPI document ({@code /v3/api-docs}) is called
 * by strangers (no token, a malformed, an unknown, an expired and a revoked token), the MEMBER and TEAM_ADMIN of
 * team A and of team B, and a platform admin, against team A's resources; every console page and form (from the
 * handler mappings) by no session, those people signed in, and forms without their CSRF token. What each caller
 * must be answered comes from one table, {@link #EXPECTED}, by the route's access level. Team B's answers are
 * also searched for team A's names. A route without a row here fails the test, so a new endpoint cannot slip
 * through unchecked. The counts go to {@code target/isolation/summary.json}.
 */
@TestPropertySource(properties = "spillover.security.max-failures=1000000000") // strangers' bad tokens are the point
class IsolationTest extends ApiTest {

    static final String M5 = "ml.m5.xlarge";
    /** The type the console's fleet form changes: no job asks for it, so no job starts because of it. */
    static final String SPARE = "ml.g6.48xlarge";
    static final String PASSWORD = "an-isolation-password-42";
    static final String SECRET_DISPLAY = "Alpha Secret Team";
    static final String SECRET_JOB = "alpha-resident";
    static final String SECRET_PROFILE = "alpha-kept";
    static final String SECRET_PLAN = "alpha-plan";
    static final String SECRET_HOOK = "alpha-hook";
    static final String ENDED_JOB = "alpha-ended";
    /** A hook that no job's change matches, so that no delivery is made behind the test's back. */
    static final Map<String, Object> QUIET_HOOK = Map.of("url", "http://127.0.0.1:9/iso", "events",
            List.of("job.pending-timeout"), "jobNameGlob", "never-*");
    /** The type the what-if rows' history runs on: no other job asks for it. */
    static final String WHAT_IF_TYPE = "ml.g5.48xlarge";
    /** A window of history with a job that ran, and a what-if run over it: made once, for every row that needs one. */
    private static Map<String, Object> whatIfRequest;
    private static String whatIfRun;

    /** Who calls. The strangers hold no credential that works; the rest stand in team A, team B or above both. */
    enum Who {
        NO_TOKEN, MALFORMED_TOKEN, UNKNOWN_TOKEN, EXPIRED_TOKEN, REVOKED_TOKEN, NO_SESSION,
        MEMBER_B, TEAM_ADMIN_B, MEMBER_A, TEAM_ADMIN_A, PLATFORM_ADMIN;

        boolean ofTeamB() {
            return this == MEMBER_B || this == TEAM_ADMIN_B;
        }

        /** The same role in team A: what this caller may do in its own team. */
        Who inTeamA() {
            return this == MEMBER_B ? MEMBER_A : this == TEAM_ADMIN_B ? TEAM_ADMIN_A : this;
        }
    }

    enum Outcome { UNAUTHENTICATED, NOT_FOUND, FORBIDDEN, ALLOWED }

    private static final Outcome U = Outcome.UNAUTHENTICATED;
    private static final Outcome N = Outcome.NOT_FOUND;
    private static final Outcome F = Outcome.FORBIDDEN;
    private static final Outcome A = Outcome.ALLOWED;

    /**
     * The one table: each caller's answer on team A's resources, by access level, in the columns AUTHENTICATED,
     * MEMBER, TEAM_ADMIN, PLATFORM_ADMIN. The API answers 401, 404, 403 and 2xx; the console redirects to the
     * sign-in page, answers 404 and 403, and serves the page or makes the change.
     */
    static final Map<Who, List<Outcome>> EXPECTED = new EnumMap<>(Map.ofEntries(
            Map.entry(Who.NO_TOKEN, List.of(U, U, U, U)),
            Map.entry(Who.MALFORMED_TOKEN, List.of(U, U, U, U)),
            Map.entry(Who.UNKNOWN_TOKEN, List.of(U, U, U, U)),
            Map.entry(Who.EXPIRED_TOKEN, List.of(U, U, U, U)),
            Map.entry(Who.REVOKED_TOKEN, List.of(U, U, U, U)),
            Map.entry(Who.NO_SESSION, List.of(U, U, U, U)),
            Map.entry(Who.MEMBER_B, List.of(A, N, N, F)),
            Map.entry(Who.TEAM_ADMIN_B, List.of(A, N, N, F)),
            Map.entry(Who.MEMBER_A, List.of(A, A, F, F)),
            Map.entry(Who.TEAM_ADMIN_A, List.of(A, A, A, F)),
            Map.entry(Who.PLATFORM_ADMIN, List.of(A, A, A, A))));

    static Outcome expected(Who who, Access.Level level) {
        return EXPECTED.get(who).get(level.ordinal());
    }

    static final List<Who> API_CALLERS = List.of(Who.NO_TOKEN, Who.MALFORMED_TOKEN, Who.UNKNOWN_TOKEN,
            Who.EXPIRED_TOKEN, Who.REVOKED_TOKEN, Who.MEMBER_B, Who.TEAM_ADMIN_B, Who.MEMBER_A, Who.TEAM_ADMIN_A,
            Who.PLATFORM_ADMIN);
    static final List<Who> CONSOLE_CALLERS = List.of(Who.NO_SESSION, Who.MEMBER_B, Who.TEAM_ADMIN_B, Who.MEMBER_A,
            Who.TEAM_ADMIN_A, Who.PLATFORM_ADMIN);
    /**
     * Operations whose right caller may also be refused for the platform's state rather than for who they are: the
     * demo starts only with the demo teams, which this test's platform does not have (409, a problem document).
     */
    static final Set<String> REFUSED_BY_STATE = Set.of("POST /api/v1/admin/demo");

    /** Routes outside the API anyone may open; {@code *} when the route answers every method. */
    static final Set<String> PUBLIC = Set.of("GET /login", "* /error");

    /** What a refused form must leave as it was. */
    static final String FINGERPRINT = """
            SELECT (SELECT md5(coalesce(string_agg(team || '/' || name || '/' || status, ',' ORDER BY team, name), ''))
                      FROM jobs)
                || '/' || (SELECT count(*) FROM api_tokens WHERE revoked_at IS NULL)
                || '/' || (SELECT md5(coalesce(string_agg(name || display_name || queueing, ',' ORDER BY name), ''))
                      FROM teams)
                || '/' || (SELECT md5(coalesce(string_agg(p.team || p.name || p.version || p.deleted, ','
                      ORDER BY p.team, p.name, p.version), ''))
                      FROM profiles p)
                || '/' || (SELECT md5(coalesce(string_agg(username || display_name || platform_admin, ','
                      ORDER BY username), '')) FROM users)
                || '/' || (SELECT md5(coalesce(string_agg(m::text, ',' ORDER BY m.username, m.team), ''))
                      FROM memberships m)
                || '/' || (SELECT count(*) FROM training_plans)
                || '/' || (SELECT md5(coalesce(string_agg(region || instance_type || total, ',' ORDER BY id), ''))
                      FROM offerings)
                || '/' || (SELECT count(*) FROM webhooks) || '/' || (SELECT count(*) FROM webhook_deliveries)
                || '/' || (SELECT count(*) FROM what_if_runs)""";

    /** One API operation as the document lists it, with the access rule of the handler that serves it. */
    record Operation(String method, String pattern, Access.Level level) {
        @Override
        public String toString() {
            return method + " " + pattern;
        }
    }

    /** A request the right caller can make succeed; path and body are made afresh for each call. */
    record Sample(Supplier<String> path, Supplier<Object> body) {
    }

    /** A console route's row: its access level, a path to call, the form to post, and whether it changes state. */
    record Page(Access.Level level, Supplier<String> path, Supplier<Map<String, String>> form, boolean changes) {
    }

    private static final Map<String, Integer> COUNTS = new TreeMap<>();
    private static final AtomicInteger UNIQUE = new AtomicInteger();

    @Autowired
    @Qualifier("requestMappingHandlerMapping")
    RequestMappingHandlerMapping mappings;

    @Autowired
    JdbcClient jdbc;

    private String teamA;
    private String teamB;
    private final List<String> failures = new ArrayList<>();
    private int leaks;

    @BeforeEach
    void twoTeamsAndTeamAsThings() {
        capacity(M5, 0);
        teamA = team(Map.of(M5, 4));
        teamB = team(Map.of(M5, 4));
        expect(api.put("/api/v1/admin/teams/" + teamA, Map.of("displayName", SECRET_DISPLAY)), 200);
        submit(teamA, job(SECRET_JOB, entry(M5, 1)));
        submit(teamB, job("bravo-own", entry(M5, 1)));
        expect(api.put("/api/v1/teams/" + teamA + "/profiles/" + SECRET_PROFILE, profile()), 201);
        expect(api.put("/api/v1/admin/training-plans/" + SECRET_PLAN, plan(teamA)), 201, 200);
        expect(api.put("/api/v1/teams/" + teamA + "/webhooks/" + SECRET_HOOK, QUIET_HOOK), 201);
        submit(teamA, job(ENDED_JOB, entry(M5, 1)));
        expect(api.post("/api/v1/teams/" + teamA + "/jobs/" + ENDED_JOB + "/stop", Map.of()), 200);
    }

    @Test
    void everyOperationAnswersEachCallerAsTheTableSaysAndNeverLeaksTeamA() {
        List<Operation> operations = documentedOperations();
        assertThat(operations).hasSizeGreaterThan(20);
        Map<Who, Api> callers = apiCallers();
        Map<String, Sample> samples = samples();
        Map<String, Sample> rows = Map.copyOf(samples);
        var rowless = new TreeSet<String>();
        int cells = 0;
        for (Operation operation : operations) {
            Sample sample = samples.remove(operation.toString());
            if (sample == null) {
                rowless.add(operation.toString());
                continue;
            }
            for (Who who : API_CALLERS) {
                String path = sample.path().get();
                Object body = sample.body().get();
                Api.Response response = call(callers.get(who), operation.method(), path, body);
                checkApi(operation + " " + path, who, expected(who, operation.level()), path, body, response);
                cells++;
            }
        }
        int listCells = teamBsOwnListsHoldNothingOfTeamA(operations, rows, callers);
        record("api.operations", operations.size());
        record("api.callers", API_CALLERS.size());
        record("api.cells", cells);
        record("api.teamBListCells", listCells);
        record("api.leaks", leaks);

        assertThat(rowless).as("operations without a row in IsolationTest.samples()").isEmpty();
        assertThat(samples.keySet()).as("rows in IsolationTest.samples() for operations the document lacks").isEmpty();
        assertThat(failures).as("cells that broke the table").isEmpty();
        assertThat(leaks).as("answers to team B holding team A's things").isZero();
    }

    @Test
    void everyConsolePageAndFormAnswersEachSessionAsTheTableSays() {
        Map<String, Page> pages = pages();
        var routes = consoleRoutes();
        Map<Who, ConsoleSession> sessions = consoleSessions();
        var rowless = new TreeSet<String>();
        int cells = 0;
        for (String route : routes) {
            if (PUBLIC.contains(route)) {
                HttpResponse<String> open = new ConsoleSession(port()).get(route.substring(route.indexOf(' ') + 1));
                note(open.statusCode() < 500, route + " is open to anyone, and no 5xx; got " + open.statusCode());
                cells++;
                continue;
            }
            Page page = pages.remove(route);
            if (page == null) {
                rowless.add(route);
                continue;
            }
            boolean post = route.startsWith("POST ");
            if (post) {
                cells += formWithoutCsrfIsRefused(route, page, sessions.get(Who.PLATFORM_ADMIN));
            }
            for (Who who : CONSOLE_CALLERS) {
                Outcome outcome = expected(who, page.level());
                cells += post ? postForm(route, page, who, outcome, sessions.get(who))
                        : getPage(route, page, who, outcome, sessions.get(who));
            }
        }
        record("console.routes", routes.size());
        record("console.callers", CONSOLE_CALLERS.size());
        record("console.cells", cells);
        record("console.leaks", leaks);

        assertThat(rowless).as("console routes without a row in IsolationTest.pages()").isEmpty();
        assertThat(pages.keySet()).as("rows in IsolationTest.pages() for routes the console lacks").isEmpty();
        assertThat(failures).as("cells that broke the table").isEmpty();
        assertThat(leaks).as("pages for team B holding team A's things").isZero();
    }

    /**
     * A job's transitions go out on the console's event stream after commit, in the committing request: so when
     * team B's stream has B's later job, anything it would be sent of A's earlier one has arrived before it.
     */
    @Test
    void theLiveEventsOfTeamAsJobsReachNoSessionOfTeamB() {
        ConsoleSession memberA = person("iso-member-a", teamA, TeamRole.MEMBER, false);
        ConsoleSession memberB = person("iso-member-b", teamB, TeamRole.MEMBER, false);
        try (var a = memberA.events("/events"); var b = memberB.events("/events")) {
            await().atMost(Duration.ofSeconds(10)).until(() -> a.lines().contains("data:connected")
                    && b.lines().contains("data:connected"));

            submit(teamA, job("alpha-live", entry(M5, 1)));
            submit(teamB, job("bravo-live", entry(M5, 1)));

            await().atMost(Duration.ofSeconds(10)).until(() -> a.lines().contains("data:" + teamA + "/alpha-live")
                    && b.lines().contains("data:" + teamB + "/bravo-live"));
            List<String> toB = b.lines();
            assertThat(toB).noneMatch(line -> named(teamA).matcher(line).find() || line.contains("alpha-live"));
            record("console.liveEventStreams", 2);
        }
    }

    /** Who signs a call of the SageMaker endpoint. The strangers hold no key that works. */
    enum Signer {
        NO_SIGNATURE, UNKNOWN_KEY, WRONG_SECRET, SKEWED_CLOCK, EXPIRED_KEY, REVOKED_KEY, MEMBER_B, TEAM_ADMIN_B,
        MEMBER_A, TEAM_ADMIN_A
    }

    /** What each stranger is answered, as AWS answers it; team B's callers are answered as if A's things were not there. */
    static final Map<Signer, String> STRANGERS = Map.of(Signer.NO_SIGNATURE, "MissingAuthenticationTokenException",
            Signer.UNKNOWN_KEY, "UnrecognizedClientException", Signer.WRONG_SECRET, "InvalidSignatureException",
            Signer.SKEWED_CLOCK, "InvalidSignatureException", Signer.EXPIRED_KEY, "UnrecognizedClientException",
            Signer.REVOKED_KEY, "UnrecognizedClientException");

    /**
     * Every operation of the SageMaker endpoint, signed by every kind of signer, on team A's jobs: strangers get the
     * error AWS gives and change nothing; team B's members find none of team A's jobs ("Requested resource not
     * found.", lists without them, creates in their own team) and change nothing of team A's; team A's may do all.
     */
    @Test
    void everySageMakerOperationAnswersEachSignerAsTheTableSaysAndNeverLeaksTeamA() {
        Map<Signer, SignedCalls> signers = signers();
        String processing = "alpha-prep";
        expect(api.post("/api/v1/teams/" + teamA + "/jobs", Map.of("name", processing, "kind", "PROCESSING",
                "instanceCount", 1, "instancePreferences", List.of(Map.of("instanceType", M5)))), 201);
        String arn = "arn:aws:sagemaker:us-east-1:000000000000:training-job/" + SECRET_JOB;
        Map<String, Supplier<Map<String, Object>>> samples = new LinkedHashMap<>();
        samples.put("CreateTrainingJob", () -> Map.of("TrainingJobName", "sm-" + UNIQUE.incrementAndGet(),
                "ResourceConfig", Map.of("InstanceType", M5, "InstanceCount", 1)));
        samples.put("CreateProcessingJob", () -> Map.of("ProcessingJobName", "sm-" + UNIQUE.incrementAndGet(),
                "ProcessingResources", Map.of("ClusterConfig", Map.of("InstanceType", M5, "InstanceCount", 1,
                        "VolumeSizeInGB", 10))));
        samples.put("DescribeTrainingJob", () -> Map.of("TrainingJobName", SECRET_JOB));
        samples.put("DescribeProcessingJob", () -> Map.of("ProcessingJobName", processing));
        samples.put("StopTrainingJob", () -> Map.of("TrainingJobName", aLiveJobOfTeamA("TRAINING")));
        samples.put("StopProcessingJob", () -> Map.of("ProcessingJobName", aLiveJobOfTeamA("PROCESSING")));
        samples.put("ListTrainingJobs", Map::of);
        samples.put("ListProcessingJobs", Map::of);
        samples.put("AddTags", () -> Map.of("ResourceArn", arn, "Tags", List.of(Map.of("Key", "k", "Value", "v"))));
        samples.put("ListTags", () -> Map.of("ResourceArn", arn));
        // the endpoint names what it serves when asked for something else: a new operation cannot slip through
        String served = signers.get(Signer.MEMBER_A).call("NoSuchOperation", Map.of()).json().get("message")
                .asString().replaceAll("^Spillover serves (.*); not NoSuchOperation$", "$1");
        assertThat(samples.keySet()).as("a row for every operation the endpoint serves")
                .containsExactlyInAnyOrder(served.split(", "));
        int cells = 0;
        for (var sample : samples.entrySet()) {
            String operation = sample.getKey();
            boolean namesTeamAsJob = !operation.startsWith("Create") && !operation.startsWith("List")
                    || operation.equals("ListTags");
            for (Signer signer : Signer.values()) {
                Map<String, Object> body = sample.getValue().get();
                String cell = "SageMaker." + operation + " " + body + " as " + signer;
                String teamAsJobs = teamAsJobs();
                String before = fingerprint();
                Api.Response response = signer == Signer.NO_SIGNATURE
                        ? signers.get(Signer.MEMBER_A).send("SageMaker." + operation, Api.JSON.writeValueAsString(body),
                        false)
                        : signers.get(signer).call(operation, body);
                String code = SignedCalls.code(response);
                if (STRANGERS.containsKey(signer)) {
                    note(STRANGERS.get(signer).equals(code), cell + ": expected " + STRANGERS.get(signer) + ", got "
                            + response.status() + " " + abbreviate(response.text()));
                    note(fingerprint().equals(before), cell + ": refused, but stored something");
                    searchForTeamA(cell, body.toString(), response.text());
                } else if (signer == Signer.MEMBER_B || signer == Signer.TEAM_ADMIN_B) {
                    if (namesTeamAsJob) {
                        note("ValidationException".equals(code) && response.json().path("message").asString("")
                                .equals("Requested resource not found."), cell + ": expected not found, got "
                                + response.status() + " " + abbreviate(response.text()));
                        note(fingerprint().equals(before), cell + ": refused, but stored something");
                    } else {
                        note(response.status() == 200, cell + ": its own team's, expected 200, got "
                                + response.status() + " " + abbreviate(response.text()));
                    }
                    note(teamAsJobs().equals(teamAsJobs), cell + ": changed team A's jobs");
                    searchForTeamA(cell, namesTeamAsJob ? body.toString() : "", response.text());
                } else {
                    note(response.status() == 200, cell + ": expected 200, got " + response.status() + " "
                            + abbreviate(response.text()));
                }
                cells++;
            }
        }
        record("sagemaker.operations", samples.size());
        record("sagemaker.signers", Signer.values().length);
        record("sagemaker.cells", cells);
        assertThat(failures).as("cells that broke the table").isEmpty();
        assertThat(leaks).as("answers to team B holding team A's things").isZero();
    }

    /** A signer of each kind; the strangers' keys are made to fail in their own way. */
    private Map<Signer, SignedCalls> signers() {
        var signers = new EnumMap<Signer, SignedCalls>(Signer.class);
        signers.put(Signer.MEMBER_A, signer(teamA, TeamRole.MEMBER, null));
        signers.put(Signer.TEAM_ADMIN_A, signer(teamA, TeamRole.TEAM_ADMIN, null));
        signers.put(Signer.MEMBER_B, signer(teamB, TeamRole.MEMBER, null));
        signers.put(Signer.TEAM_ADMIN_B, signer(teamB, TeamRole.TEAM_ADMIN, null));
        signers.put(Signer.UNKNOWN_KEY, new SignedCalls(port(), "SPLKAAAAAAAAAAAAAAAA",
                "an-unknown-secret-of-forty-characters-00", "us-east-1"));
        signers.put(Signer.WRONG_SECRET, signers.get(Signer.MEMBER_A).withSecret("a-wrong-secret-of-forty-characters-000000"));
        signers.put(Signer.SKEWED_CLOCK, signers.get(Signer.MEMBER_A).skewedBy(Duration.ofMinutes(-20)));
        SignedCalls expiring = signer(teamA, TeamRole.TEAM_ADMIN, Instant.now().plusSeconds(1));
        assertThat(expiring.call("ListTrainingJobs", Map.of()).status()).as("the key works until it expires")
                .isEqualTo(200);
        await().atMost(Duration.ofSeconds(5)).until(() -> expiring.call("ListTrainingJobs", Map.of()).status() != 200);
        signers.put(Signer.EXPIRED_KEY, expiring);
        JsonNode revoked = expect(api.post("/api/v1/teams/" + teamA + "/tokens", Map.of("name", "revoked-key",
                "role", "TEAM_ADMIN", "accessKey", true)), 201).json();
        expect(api.delete("/api/v1/teams/" + teamA + "/tokens/" + revoked.get("id").asString()), 204);
        signers.put(Signer.REVOKED_KEY, new SignedCalls(port(), revoked.get("accessKeyId").asString(),
                revoked.get("secretAccessKey").asString(), "us-east-1"));
        assertThat(expect(api.post("/api/v1/admin/tokens", Map.of("name", "root-key", "accessKey", true)), 400)
                .json().get("errors").get(0).get("field").asString()).as("a platform token carries no key")
                .isEqualTo("accessKey");
        return signers;
    }

    private SignedCalls signer(String team, TeamRole role, Instant expiresAt) {
        var request = new HashMap<String, Object>(Map.of("name", role + " key", "role", role.name(), "accessKey",
                true));
        if (expiresAt != null) {
            request.put("expiresAt", expiresAt.toString());
        }
        JsonNode token = expect(api.post("/api/v1/teams/" + team + "/tokens", request), 201).json();
        return new SignedCalls(port(), token.get("accessKeyId").asString(), token.get("secretAccessKey").asString(),
                "us-east-1");
    }

    /** A new pending job of team A, for a stop to stop. */
    private String aLiveJobOfTeamA(String kind) {
        String name = "alpha-live-" + UNIQUE.incrementAndGet();
        expect(api.post("/api/v1/teams/" + teamA + "/jobs", Map.of("name", name, "kind", kind, "instanceCount", 1,
                "instancePreferences", List.of(Map.of("instanceType", M5)))), 201);
        return name;
    }

    private String teamAsJobs() {
        return jdbc.sql("SELECT md5(coalesce(string_agg(name || status || spec::text, ',' ORDER BY name), '')) FROM jobs"
                + " WHERE team = ?").param(teamA).query(String.class).single();
    }

    @Test
    void aMemberSeesOnlyTheOfferingsTheirTeamMayUse() {
        capacity(M5, 1);
        capacity("ml.g5.12xlarge", 1);
        String team = team(Map.of(M5, 1));
        Api member = api.as(token(team, TeamRole.MEMBER, null));

        List<String> types = new ArrayList<>();
        expect(member.get("/api/v1/capacity"), 200).json().forEach(o -> types.add(o.get("instanceType").asString()));

        assertThat(types).containsExactly(M5);
        assertThat(api.get("/api/v1/capacity").json().size()).isGreaterThan(1);
    }

    @AfterAll
    static void writeSummary() throws IOException {
        var summary = new LinkedHashMap<String, Object>();
        summary.put("operations", COUNTS.getOrDefault("api.operations", 0));
        summary.put("callers", COUNTS.getOrDefault("api.callers", 0));
        summary.put("apiCells", COUNTS.getOrDefault("api.cells", 0));
        summary.put("teamBListCells", COUNTS.getOrDefault("api.teamBListCells", 0));
        summary.put("consoleRoutes", COUNTS.getOrDefault("console.routes", 0));
        summary.put("consoleCallers", COUNTS.getOrDefault("console.callers", 0));
        summary.put("consoleCells", COUNTS.getOrDefault("console.cells", 0));
        summary.put("liveEventStreams", COUNTS.getOrDefault("console.liveEventStreams", 0));
        summary.put("sageMakerOperations", COUNTS.getOrDefault("sagemaker.operations", 0));
        summary.put("sageMakerSigners", COUNTS.getOrDefault("sagemaker.signers", 0));
        summary.put("sageMakerCells", COUNTS.getOrDefault("sagemaker.cells", 0));
        summary.put("cellsChecked", COUNTS.getOrDefault("api.cells", 0) + COUNTS.getOrDefault("api.teamBListCells", 0)
                + COUNTS.getOrDefault("console.cells", 0) + COUNTS.getOrDefault("sagemaker.cells", 0));
        summary.put("leaks", COUNTS.getOrDefault("api.leaks", 0) + COUNTS.getOrDefault("console.leaks", 0));
        String json = Api.JSON.writerWithDefaultPrettyPrinter().writeValueAsString(summary);
        Path file = Path.of("target", "isolation", "summary.json");
        Files.createDirectories(file.getParent());
        Files.writeString(file, json);
        System.out.println("Isolation matrix: " + json);
    }

    // --- the API ---

    private void checkApi(String cell, Who who, Outcome outcome, String path, Object body, Api.Response response) {
        int status = response.status();
        boolean ok = switch (outcome) {
            case UNAUTHENTICATED -> status == 401;
            case NOT_FOUND -> status == 404;
            case FORBIDDEN -> status == 403;
            case ALLOWED -> status >= 200 && status < 300
                    || status == 409 && REFUSED_BY_STATE.contains(cell.substring(0, cell.indexOf(' ', cell.indexOf(' ') + 1)));
        };
        note(ok, cell + " as " + who + ": expected " + outcome + ", got " + status + " " + abbreviate(response.text()));
        if (outcome != Outcome.ALLOWED || status == 409) {
            String type = String.valueOf(response.header("Content-Type"));
            note(type.startsWith("application/problem+json"), cell + " as " + who + ": a refusal without a problem"
                    + " document (" + type + ")");
        }
        if (who.ofTeamB() && status >= 200 && status < 300 && segments(path).contains(teamA)) {
            leak(cell + " as " + who + ": answered " + status + " on team A's resource");
        }
        if (who.ofTeamB() || outcome == Outcome.UNAUTHENTICATED) {
            searchForTeamA(cell + " as " + who, path + " " + (body == null ? "" : Api.JSON.writeValueAsString(body)),
                    response.text());
        }
    }

    /** Team B's callers read their own team's lists and the lists for everyone: none may name team A's things. */
    private int teamBsOwnListsHoldNothingOfTeamA(List<Operation> operations, Map<String, Sample> rows,
                                                 Map<Who, Api> callers) {
        int cells = 0;
        for (Operation operation : operations) {
            String withoutTeam = operation.pattern().replace("{team}", "");
            if (!operation.method().equals("GET") || withoutTeam.contains("{") || !rows.containsKey(operation.toString())) {
                continue;
            }
            String path = rows.get(operation.toString()).path().get().replace("/teams/" + teamA, "/teams/" + teamB);
            for (Who who : List.of(Who.MEMBER_B, Who.TEAM_ADMIN_B)) {
                Outcome outcome = expected(who.inTeamA(), operation.level());
                checkApi(operation + " on team B's own " + path, who, outcome, path, null,
                        callers.get(who).get(path));
                cells++;
            }
        }
        return cells;
    }

    private List<Operation> documentedOperations() {
        var levels = new HashMap<String, Access.Level>();
        mappings.getHandlerMethods().forEach((info, handler) -> {
            Access access = handler.getMethodAnnotation(Access.class);
            for (String pattern : info.getPatternValues()) {
                for (RequestMethod method : info.getMethodsCondition().getMethods()) {
                    if (pattern.startsWith("/api/") && access != null) {
                        levels.put(method.name() + " " + pattern, access.value());
                    }
                }
            }
        });
        JsonNode document = expect(api.get("/v3/api-docs"), 200).json();
        var operations = new ArrayList<Operation>();
        var unruled = new TreeSet<String>();
        document.get("paths").properties().forEach(path -> path.getValue().properties().forEach(item -> {
            String method = item.getKey().toUpperCase();
            if (Set.of("GET", "POST", "PUT", "PATCH", "DELETE").contains(method)) {
                Access.Level level = levels.get(method + " " + path.getKey());
                if (level == null) {
                    unruled.add(method + " " + path.getKey());
                } else {
                    operations.add(new Operation(method, path.getKey(), level));
                }
            }
        }));
        assertThat(unruled).as("documented operations without a handler that has an @Access rule").isEmpty();
        operations.sort(java.util.Comparator.comparing(Operation::toString));
        return operations;
    }

    private Map<Who, Api> apiCallers() {
        var callers = new EnumMap<Who, Api>(Who.class);
        callers.put(Who.NO_TOKEN, api.as(null));
        callers.put(Who.MALFORMED_TOKEN, api.as("not a token, {\"and\": 'quotes'}"));
        String real = token(teamA, TeamRole.MEMBER, null);
        String unknownId = "spl_" + "zzzzzzzzzzzz" + real.substring(real.indexOf('_', 4));
        callers.put(Who.UNKNOWN_TOKEN, api.as(unknownId));
        callers.put(Who.EXPIRED_TOKEN, expiredToken());
        callers.put(Who.REVOKED_TOKEN, revokedToken());
        callers.put(Who.MEMBER_A, api.as(token(teamA, TeamRole.MEMBER, null)));
        callers.put(Who.TEAM_ADMIN_A, api.as(token(teamA, TeamRole.TEAM_ADMIN, null)));
        callers.put(Who.MEMBER_B, api.as(token(teamB, TeamRole.MEMBER, null)));
        callers.put(Who.TEAM_ADMIN_B, api.as(token(teamB, TeamRole.TEAM_ADMIN, null)));
        callers.put(Who.PLATFORM_ADMIN, api.as(expect(api.post("/api/v1/admin/tokens", Map.of("name", "iso-root")),
                201).json().get("secret").asString()));
        return callers;
    }

    /** A team A admin's token that ran out a moment ago: it worked, then is refused. */
    private Api expiredToken() {
        String secret = token(teamA, TeamRole.TEAM_ADMIN, Instant.now().plusSeconds(1));
        Api holder = api.as(secret);
        assertThat(holder.get("/api/v1/me").status()).as("the token works until it expires").isEqualTo(200);
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100))
                .until(() -> holder.get("/api/v1/me").status() == 401);
        return holder;
    }

    private Api revokedToken() {
        JsonNode issued = expect(api.post("/api/v1/teams/" + teamA + "/tokens", Map.of("name", "revoked",
                "role", "TEAM_ADMIN")), 201).json();
        Api holder = api.as(issued.get("secret").asString());
        assertThat(holder.get("/api/v1/me").status()).isEqualTo(200);
        expect(api.delete("/api/v1/teams/" + teamA + "/tokens/" + issued.get("id").asString()), 204);
        return holder;
    }

    private String token(String team, TeamRole role, Instant expiresAt) {
        var request = new HashMap<String, Object>(Map.of("name", role + " token", "role", role.name()));
        if (expiresAt != null) {
            request.put("expiresAt", expiresAt.toString());
        }
        return expect(api.post("/api/v1/teams/" + team + "/tokens", request), 201).json().get("secret").asString();
    }

    private static Api.Response call(Api client, String method, String path, Object body) {
        return switch (method) {
            case "GET" -> client.get(path);
            case "POST" -> client.post(path, body == null ? Map.of() : body);
            case "PUT" -> client.put(path, body == null ? Map.of() : body);
            case "DELETE" -> client.delete(path);
            default -> throw new AssertionError("no way to call " + method + " " + path);
        };
    }

    /** The API's rows: one request per operation that the right caller can make succeed on team A's things. */
    private Map<String, Sample> samples() {
        String a = "/api/v1/teams/" + teamA;
        var samples = new TreeMap<String, Sample>();
        samples.put("GET /api/v1/me", fixed("/api/v1/me", null));
        samples.put("GET /api/v1/capacity", fixed("/api/v1/capacity", null));
        samples.put("GET /api/v1/catalog/instance-types", fixed("/api/v1/catalog/instance-types", null));
        samples.put("GET /api/v1/catalog/equivalents", fixed("/api/v1/catalog/equivalents?instanceType="
                + "ml.p4d.24xlarge&instanceCount=2", null));
        samples.put("POST /api/v1/teams/{team}/jobs", new Sample(() -> a + "/jobs",
                () -> job("job-" + UNIQUE.incrementAndGet(), entry(M5, 1))));
        samples.put("POST /api/v1/teams/{team}/jobs:batch", new Sample(() -> a + "/jobs:batch",
                () -> Map.of("jobs", List.of(job("batched-" + UNIQUE.incrementAndGet(), entry(M5, 1))))));
        samples.put("POST /api/v1/teams/{team}/jobs:sagemaker", new Sample(() -> a + "/jobs:sagemaker",
                () -> Map.of("TrainingJobName", "sm-" + UNIQUE.incrementAndGet(), "ResourceConfig",
                        Map.of("InstanceType", M5, "InstanceCount", 1))));
        samples.put("GET /api/v1/teams/{team}/jobs", fixed(a + "/jobs", null));
        samples.put("GET /api/v1/teams/{team}/jobs/{job}", fixed(a + "/jobs/" + SECRET_JOB, null));
        samples.put("GET /api/v1/teams/{team}/jobs/{job}/evaluations", fixed(a + "/jobs/" + SECRET_JOB
                + "/evaluations", null));
        samples.put("GET /api/v1/teams/{team}/jobs/{job}/logs", fixed(a + "/jobs/" + SECRET_JOB + "/logs", null));
        samples.put("GET /api/v1/teams/{team}/jobs/{job}/events", fixed(a + "/jobs/" + ENDED_JOB + "/events", null));
        samples.put("GET /api/v1/teams/{team}/webhooks", fixed(a + "/webhooks", null));
        samples.put("GET /api/v1/teams/{team}/webhooks/{webhook}", fixed(a + "/webhooks/" + SECRET_HOOK, null));
        samples.put("PUT /api/v1/teams/{team}/webhooks/{webhook}", fixed(a + "/webhooks/iso-hook", QUIET_HOOK));
        samples.put("DELETE /api/v1/teams/{team}/webhooks/{webhook}", new Sample(() -> {
            String name = "doomed-hook-" + UNIQUE.incrementAndGet();
            expect(api.put(a + "/webhooks/" + name, QUIET_HOOK), 201);
            return a + "/webhooks/" + name;
        }, () -> null));
        samples.put("POST /api/v1/teams/{team}/webhooks/{webhook}:test", fixed(a + "/webhooks/" + SECRET_HOOK
                + ":test", null));
        samples.put("GET /api/v1/teams/{team}/webhooks/{webhook}/deliveries", fixed(a + "/webhooks/" + SECRET_HOOK
                + "/deliveries", null));
        samples.put("POST /api/v1/teams/{team}/webhooks/{webhook}/deliveries/{delivery}:redeliver", new Sample(
                () -> a + "/webhooks/" + SECRET_HOOK + "/deliveries/" + failedDelivery(a) + ":redeliver", Map::of));
        samples.put("POST /api/v1/teams/{team}/jobs/{job}/stop", new Sample(() -> {
            String name = "to-stop-" + UNIQUE.incrementAndGet();
            submit(teamA, job(name, entry(M5, 1)));
            return a + "/jobs/" + name + "/stop";
        }, Map::of));
        samples.put("POST /api/v1/teams/{team}/placements/explain", fixed(a + "/placements/explain",
                job("explained", entry(M5, 1))));
        samples.put("POST /api/v1/teams/{team}/tokens", fixed(a + "/tokens", Map.of("name", "ci", "role", "MEMBER")));
        samples.put("GET /api/v1/teams/{team}/tokens", fixed(a + "/tokens", null));
        samples.put("DELETE /api/v1/teams/{team}/tokens/{id}", new Sample(() -> a + "/tokens/"
                + expect(api.post(a + "/tokens", Map.of("name", "doomed", "role", "MEMBER")), 201).json()
                        .get("id").asString(), () -> null));
        samples.put("GET /api/v1/teams/{team}/profiles", fixed(a + "/profiles", null));
        samples.put("PUT /api/v1/teams/{team}/profiles/{profile}", fixed(a + "/profiles/alpha-cpu", profile()));
        samples.put("GET /api/v1/teams/{team}/profiles/{profile}", fixed(a + "/profiles/" + SECRET_PROFILE, null));
        samples.put("DELETE /api/v1/teams/{team}/profiles/{profile}", new Sample(() -> {
            String name = "alpha-doomed-" + UNIQUE.incrementAndGet();
            expect(api.put(a + "/profiles/" + name, profile()), 201);
            return a + "/profiles/" + name;
        }, () -> null));
        samples.put("GET /api/v1/teams/{team}/training-plans", fixed(a + "/training-plans", null));
        samples.put("GET /api/v1/admin/training-plans", fixed("/api/v1/admin/training-plans", null));
        samples.put("PUT /api/v1/admin/training-plans/{plan}", fixed("/api/v1/admin/training-plans/" + SECRET_PLAN,
                plan(teamA)));
        samples.put("POST /api/v1/admin/training-plans", new Sample(() -> "/api/v1/admin/training-plans", () -> {
            var created = new HashMap<>(plan(teamA));
            created.put("name", "alpha-plan-" + UNIQUE.incrementAndGet());
            return created;
        }));
        samples.put("POST /api/v1/admin/training-plans/sync", fixed("/api/v1/admin/training-plans/sync", null));
        String admin = "/api/v1/admin/teams/" + teamA;
        samples.put("GET /api/v1/admin/teams", fixed("/api/v1/admin/teams", null));
        samples.put("GET /api/v1/admin/teams/{team}", fixed(admin, null));
        samples.put("PUT /api/v1/admin/teams/{team}", fixed(admin, Map.of("displayName", SECRET_DISPLAY)));
        samples.put("PUT /api/v1/admin/teams/{team}/quotas", fixed(admin + "/quotas",
                Map.of("instanceLimits", Map.of(M5, 4))));
        samples.put("GET /api/v1/admin/teams/{team}/sagemaker", fixed(admin + "/sagemaker", null));
        samples.put("PUT /api/v1/admin/teams/{team}/sagemaker", fixed(admin + "/sagemaker",
                Map.of("outputS3Uri", "s3://team-a/out")));
        samples.put("POST /api/v1/admin/capacity/refresh", fixed("/api/v1/admin/capacity/refresh", null));
        samples.put("PUT /api/v1/admin/fleet/{region}/{instanceType}", fixed("/api/v1/admin/fleet/us-east-1/" + M5,
                Map.of("onDemandCapacity", 0)));
        samples.put("GET /api/v1/admin/audit", fixed("/api/v1/admin/audit", null));
        samples.put("POST /api/v1/admin/what-if", new Sample(() -> "/api/v1/admin/what-if", this::whatIfRequest));
        samples.put("GET /api/v1/admin/what-if", fixed("/api/v1/admin/what-if", null));
        samples.put("GET /api/v1/admin/what-if/{id}", new Sample(() -> "/api/v1/admin/what-if/" + whatIfRun(),
                () -> null));
        samples.put("GET /api/v1/admin/demo", fixed("/api/v1/admin/demo", null));
        samples.put("POST /api/v1/admin/demo", fixed("/api/v1/admin/demo", null));
        samples.put("POST /api/v1/admin/demo:stop", fixed("/api/v1/admin/demo:stop", null));
        samples.put("GET /api/v1/admin/demo/events", fixed("/api/v1/admin/demo/events", null));
        samples.put("POST /api/v1/admin/tokens", fixed("/api/v1/admin/tokens", Map.of("name", "automation")));
        samples.put("GET /api/v1/admin/tokens", fixed("/api/v1/admin/tokens", null));
        samples.put("DELETE /api/v1/admin/tokens/{id}", new Sample(() -> "/api/v1/admin/tokens/"
                + expect(api.post("/api/v1/admin/tokens", Map.of("name", "doomed")), 201).json().get("id").asString(),
                () -> null));
        samples.put("GET /api/v1/admin/users", fixed("/api/v1/admin/users", null));
        samples.put("PUT /api/v1/admin/users/{username}", fixed("/api/v1/admin/users/iso-user",
                Map.of("displayName", "Iso", "password", PASSWORD)));
        samples.put("GET /api/v1/admin/users/{username}", new Sample(() -> user("iso-user"), () -> null));
        samples.put("PUT /api/v1/admin/users/{username}/memberships/{team}", new Sample(() -> user("iso-user")
                + "/memberships/" + teamA, () -> Map.of("role", "MEMBER")));
        samples.put("DELETE /api/v1/admin/users/{username}/memberships/{team}", new Sample(() -> {
            expect(api.put(user("iso-user") + "/memberships/" + teamA, Map.of("role", "MEMBER")), 200);
            return "/api/v1/admin/users/iso-user/memberships/" + teamA;
        }, () -> null));
        return samples;
    }

    /** A delivery of team A's quiet hook that is over (a ping, marked failed), for a redelivery to send again. */
    private long failedDelivery(String teamPath) {
        long id = expect(api.post(teamPath + "/webhooks/" + SECRET_HOOK + ":test", Map.of()), 202).json().get("id")
                .asLong();
        jdbc.sql("UPDATE webhook_deliveries SET state = 'FAILED', done_at = now() WHERE id = ?").param(id).update();
        return id;
    }

    /** A window of history in which a job ran, and a change of the capacity it ran on: a what-if run to start. */
    private Map<String, Object> whatIfRequest() {
        if (whatIfRequest == null) {
            capacity(WHAT_IF_TYPE, 1);
            String team = team(Map.of(WHAT_IF_TYPE, 1));
            Instant from = Instant.now();
            var body = new HashMap<>(job("iso-history", entry(WHAT_IF_TYPE, 1)));
            body.put("local", Map.of("runtimeSeconds", 1));
            submit(team, body);
            awaitStatus(team, "iso-history", "COMPLETED");
            whatIfRequest = Map.of("input", Map.of("from", from.toString(), "to", Instant.now().toString()),
                    "edits", List.of(Map.of("kind", "offering-capacity", "region", "us-east-1", "instanceType",
                            WHAT_IF_TYPE, "instances", 2)));
        }
        return whatIfRequest;
    }

    private String whatIfRun() {
        if (whatIfRun == null) {
            whatIfRun = expect(api.post("/api/v1/admin/what-if", whatIfRequest()), 202).json().get("id").asString();
        }
        return whatIfRun;
    }

    private static Sample fixed(String path, Object body) {
        return new Sample(() -> path, () -> body);
    }

    // --- the console ---

    /** The console's rows: each page and form, its access level, and a path and form on team A's things. */
    private Map<String, Page> pages() {
        String a = "/teams/" + teamA;
        var pages = new TreeMap<String, Page>();
        pages.put("GET /", get(Access.Level.AUTHENTICATED, "/"));
        pages.put("GET /dashboard/panels", get(Access.Level.AUTHENTICATED, "/dashboard/panels"));
        pages.put("GET /events", get(Access.Level.AUTHENTICATED, "/events"));
        pages.put("GET /teams/{team}/jobs", get(Access.Level.MEMBER, a + "/jobs"));
        pages.put("GET /teams/{team}/jobs/new", get(Access.Level.MEMBER, a + "/jobs/new"));
        pages.put("GET /teams/{team}/jobs/equivalents", get(Access.Level.MEMBER, a
                + "/jobs/equivalents?instanceType=ml.p4d.24xlarge&instanceCount=2"));
        pages.put("GET /teams/{team}/jobs/{job}", get(Access.Level.MEMBER, a + "/jobs/" + SECRET_JOB));
        pages.put("GET /teams/{team}/jobs/{job}/panel", get(Access.Level.MEMBER, a + "/jobs/" + SECRET_JOB + "/panel"));
        pages.put("GET /teams/{team}/profiles", get(Access.Level.MEMBER, a + "/profiles"));
        pages.put("GET /teams/{team}/plans", get(Access.Level.MEMBER, a + "/plans"));
        pages.put("GET /teams/{team}/tokens", get(Access.Level.TEAM_ADMIN, a + "/tokens"));
        pages.put("GET /teams/{team}/webhooks", get(Access.Level.TEAM_ADMIN, a + "/webhooks"));
        pages.put("GET /teams/{team}/webhooks/{webhook}", get(Access.Level.TEAM_ADMIN, a + "/webhooks/" + SECRET_HOOK));
        pages.put("POST /teams/{team}/webhooks", new Page(Access.Level.TEAM_ADMIN, () -> a + "/webhooks",
                () -> Map.of("name", "console-hook-" + UNIQUE.incrementAndGet(), "url", "http://127.0.0.1:9/console",
                        "events", "job.pending-timeout", "jobNameGlob", "never-*"), true));
        pages.put("POST /teams/{team}/webhooks/{webhook}/delete", new Page(Access.Level.TEAM_ADMIN, () -> {
            String name = "console-doomed-hook-" + UNIQUE.incrementAndGet();
            expect(api.put("/api/v1" + a + "/webhooks/" + name, QUIET_HOOK), 201);
            return a + "/webhooks/" + name + "/delete";
        }, Map::of, true));
        pages.put("POST /teams/{team}/webhooks/{webhook}/test", new Page(Access.Level.TEAM_ADMIN,
                () -> a + "/webhooks/" + SECRET_HOOK + "/test", Map::of, true));
        pages.put("POST /teams/{team}/webhooks/{webhook}/deliveries/{delivery}/redeliver", new Page(
                Access.Level.TEAM_ADMIN, () -> a + "/webhooks/" + SECRET_HOOK + "/deliveries/"
                        + failedDelivery("/api/v1" + a) + "/redeliver", Map::of, true));
        pages.put("GET /admin/teams", get(Access.Level.PLATFORM_ADMIN, "/admin/teams"));
        pages.put("GET /admin/users", get(Access.Level.PLATFORM_ADMIN, "/admin/users"));
        pages.put("GET /admin/plans", get(Access.Level.PLATFORM_ADMIN, "/admin/plans"));
        pages.put("GET /admin/fleet", get(Access.Level.PLATFORM_ADMIN, "/admin/fleet"));
        pages.put("GET /admin/demo/panel", get(Access.Level.PLATFORM_ADMIN, "/admin/demo/panel"));
        pages.put("POST /admin/demo", new Page(Access.Level.PLATFORM_ADMIN, () -> "/admin/demo", Map::of, false));
        pages.put("POST /admin/demo/stop", new Page(Access.Level.PLATFORM_ADMIN, () -> "/admin/demo/stop", Map::of,
                false));
        pages.put("GET /admin/what-if", get(Access.Level.PLATFORM_ADMIN, "/admin/what-if"));
        pages.put("GET /admin/what-if/runs", get(Access.Level.PLATFORM_ADMIN, "/admin/what-if/runs"));
        pages.put("GET /admin/what-if/{id}", new Page(Access.Level.PLATFORM_ADMIN, () -> "/admin/what-if/" + whatIfRun(),
                Map::of, false));
        pages.put("GET /admin/what-if/{id}/panel", new Page(Access.Level.PLATFORM_ADMIN,
                () -> "/admin/what-if/" + whatIfRun() + "/panel", Map::of, false));
        pages.put("POST /admin/what-if", new Page(Access.Level.PLATFORM_ADMIN, () -> "/admin/what-if", () -> {
            @SuppressWarnings("unchecked")
            var window = (Map<String, String>) whatIfRequest().get("input");
            String capacity = "capacity|us-east-1|" + WHAT_IF_TYPE + "|on-demand";
            return Map.of("source", "history", "from", window.get("from"), "to", window.get("to"), capacity, "2");
        }, true));
        pages.put("POST /teams/{team}/jobs", new Page(Access.Level.MEMBER, () -> a + "/jobs",
                () -> jobForm("console-" + UNIQUE.incrementAndGet()), true));
        pages.put("POST /teams/{team}/jobs/explain", new Page(Access.Level.MEMBER, () -> a + "/jobs/explain",
                () -> jobForm("explained"), false));
        pages.put("POST /teams/{team}/jobs/{job}/stop", new Page(Access.Level.MEMBER, () -> {
            String name = "console-stop-" + UNIQUE.incrementAndGet();
            submit(teamA, job(name, entry(M5, 1)));
            return a + "/jobs/" + name + "/stop";
        }, Map::of, true));
        pages.put("POST /teams/{team}/profiles", new Page(Access.Level.TEAM_ADMIN, () -> a + "/profiles",
                () -> Map.of("name", "console-profile-" + UNIQUE.incrementAndGet(), "entries", M5 + " 1"), true));
        pages.put("POST /teams/{team}/profiles/{profile}/delete", new Page(Access.Level.TEAM_ADMIN, () -> {
            String name = "console-doomed-" + UNIQUE.incrementAndGet();
            expect(api.put("/api/v1" + a + "/profiles/" + name, profile()), 201);
            return a + "/profiles/" + name + "/delete";
        }, Map::of, true));
        pages.put("POST /teams/{team}/tokens", new Page(Access.Level.TEAM_ADMIN, () -> a + "/tokens",
                () -> Map.of("name", "console-token", "role", "MEMBER"), true));
        pages.put("POST /teams/{team}/tokens/{id}/revoke", new Page(Access.Level.TEAM_ADMIN, () -> a + "/tokens/"
                + expect(api.post("/api/v1" + a + "/tokens", Map.of("name", "console-doomed", "role", "MEMBER")), 201)
                        .json().get("id").asString() + "/revoke", Map::of, true));
        pages.put("POST /admin/teams", new Page(Access.Level.PLATFORM_ADMIN, () -> "/admin/teams",
                () -> Map.of("name", "console-team-" + UNIQUE.incrementAndGet(), "displayName", "Console",
                        "queueing", "BEST_EFFORT_FIFO", "limits", M5 + "=1"), true));
        pages.put("POST /admin/users", new Page(Access.Level.PLATFORM_ADMIN, () -> "/admin/users",
                () -> Map.of("username", "console-user-" + UNIQUE.incrementAndGet(), "displayName", "Console",
                        "password", PASSWORD), true));
        pages.put("POST /admin/users/{username}/memberships", new Page(Access.Level.PLATFORM_ADMIN, () -> {
            String name = "console-joiner-" + UNIQUE.incrementAndGet();
            return user(name).replace("/api/v1", "") + "/memberships";
        }, () -> Map.of("team", teamA, "role", "MEMBER"), true));
        pages.put("POST /admin/plans", new Page(Access.Level.PLATFORM_ADMIN, () -> "/admin/plans",
                () -> Map.of("name", "console-plan-" + UNIQUE.incrementAndGet(), "instanceType", "ml.p4d.24xlarge",
                        "instanceCount", "1", "startTime", "2030-01-01T00:00:00Z", "endTime", "2030-02-01T00:00:00Z",
                        "teamNames", teamA), true));
        pages.put("POST /admin/fleet", new Page(Access.Level.PLATFORM_ADMIN, () -> "/admin/fleet",
                () -> Map.of("region", "us-east-1", "instanceType", SPARE,
                        "capacity", String.valueOf(UNIQUE.incrementAndGet())), true));
        return pages;
    }

    private static Page get(Access.Level level, String path) {
        return new Page(level, () -> path, Map::of, false);
    }

    private int getPage(String route, Page page, Who who, Outcome outcome, ConsoleSession session) {
        String path = page.path().get();
        HttpResponse<String> response = route.equals("GET /events") ? session.firstEvent(path) : session.get(path);
        int status = response.statusCode();
        String location = response.headers().firstValue("Location").orElse("");
        boolean ok = switch (outcome) {
            case UNAUTHENTICATED -> status == 302 && location.endsWith("/login");
            case NOT_FOUND -> status == 404;
            case FORBIDDEN -> status == 403;
            case ALLOWED -> status == 200;
        };
        String cell = route + " " + path + " as " + who;
        note(ok, cell + ": expected " + outcome + ", got " + status + " " + location + " " + abbreviate(response.body()));
        if (who.ofTeamB() || outcome == Outcome.UNAUTHENTICATED) {
            if (who.ofTeamB() && status == 200 && segments(path).contains(teamA)) {
                leak(cell + ": served team A's page");
            }
            searchForTeamA(cell, path, response.body());
        }
        return 1;
    }

    private int postForm(String route, Page page, Who who, Outcome outcome, ConsoleSession session) {
        String path = page.path().get();
        var form = new LinkedHashMap<>(page.form().get());
        form.put("_csrf", session.csrf(who == Who.NO_SESSION ? "/login" : "/"));
        String before = fingerprint();
        HttpResponse<String> response = session.post(path, form);
        String after = fingerprint();
        int status = response.statusCode();
        String location = response.headers().firstValue("Location").orElse("");
        String cell = route + " " + path + " as " + who;
        boolean ok = switch (outcome) {
            case UNAUTHENTICATED -> status == 302 && location.endsWith("/login");
            case NOT_FOUND -> status == 404;
            case FORBIDDEN -> status == 403;
            case ALLOWED -> (status == 302 && !location.endsWith("/login") || status == 200)
                    && (!page.changes() || !before.equals(after));
        };
        note(ok, cell + ": expected " + outcome + ", got " + status + " " + location
                + (page.changes() && before.equals(after) ? " (nothing changed)" : "") + " " + abbreviate(response.body()));
        if (outcome != Outcome.ALLOWED) {
            note(before.equals(after), cell + ": refused, yet it changed something");
            if (who.ofTeamB() && !before.equals(after)) {
                leak(cell + ": changed team A's things");
            }
        }
        if (who.ofTeamB() || outcome == Outcome.UNAUTHENTICATED) {
            searchForTeamA(cell, path + " " + form, response.body());
        }
        return 1;
    }

    /** The caller who may post the form, without its CSRF token, and with a forged one: refused, nothing changes. */
    private int formWithoutCsrfIsRefused(String route, Page page, ConsoleSession session) {
        int cells = 0;
        for (String token : new String[] {null, "forged"}) {
            String path = page.path().get();
            var form = new LinkedHashMap<>(page.form().get());
            if (token != null) {
                form.put("_csrf", token);
            }
            String before = fingerprint();
            int status = session.post(path, form).statusCode();
            note(status == 403, route + " " + path + " with CSRF token " + token + ": expected 403, got " + status);
            note(before.equals(fingerprint()), route + " " + path + " with CSRF token " + token + ": changed something");
            cells++;
        }
        return cells;
    }

    /** Every route the application serves outside the API, from its handler mappings (springdoc's aside). */
    private TreeSet<String> consoleRoutes() {
        var routes = new TreeSet<String>();
        mappings.getHandlerMethods().forEach((info, handler) -> {
            if (!handler.getBeanType().getPackageName().startsWith("io.spillover")) {
                return;
            }
            for (String pattern : info.getPatternValues()) {
                // SageMaker's own API signs with access keys: its matrix is its own test below
                if (pattern.startsWith("/api/") || pattern.startsWith("/sagemaker")) {
                    continue;
                }
                var methods = info.getMethodsCondition().getMethods();
                if (methods.isEmpty()) {
                    routes.add("* " + pattern);
                }
                methods.forEach(method -> routes.add(method.name() + " " + pattern));
            }
        });
        assertThat(routes).hasSizeGreaterThan(20);
        return routes;
    }

    private Map<Who, ConsoleSession> consoleSessions() {
        var sessions = new EnumMap<Who, ConsoleSession>(Who.class);
        sessions.put(Who.NO_SESSION, new ConsoleSession(port()));
        sessions.put(Who.MEMBER_A, person("iso-member-a", teamA, TeamRole.MEMBER, false));
        sessions.put(Who.TEAM_ADMIN_A, person("iso-admin-a", teamA, TeamRole.TEAM_ADMIN, false));
        sessions.put(Who.MEMBER_B, person("iso-member-b", teamB, TeamRole.MEMBER, false));
        sessions.put(Who.TEAM_ADMIN_B, person("iso-admin-b", teamB, TeamRole.TEAM_ADMIN, false));
        sessions.put(Who.PLATFORM_ADMIN, person("iso-root", null, null, true));
        return sessions;
    }

    /** A person made through the API and signed in through the login form, as ConsoleLoginTest does. */
    private ConsoleSession person(String username, String team, TeamRole role, boolean platformAdmin) {
        expect(api.put("/api/v1/admin/users/" + username, Map.of("displayName", username, "password", PASSWORD,
                "platformAdmin", platformAdmin)), 201, 200);
        if (team != null) {
            expect(api.put("/api/v1/admin/users/" + username + "/memberships/" + team, Map.of("role", role.name())),
                    200);
        }
        var session = new ConsoleSession(port());
        HttpResponse<String> signedIn = session.signIn(username, PASSWORD);
        assertThat(signedIn.headers().firstValue("Location").orElse("")).as(username + " signs in").doesNotContain(
                "error");
        assertThat(session.get("/").statusCode()).as(username + " is signed in").isEqualTo(200);
        return session;
    }

    private Map<String, String> jobForm(String name) {
        return Map.of("name", name, "kind", "TRAINING", "entries[0].instanceType", M5, "entries[0].instanceCount", "1",
                "runtimeSeconds", "3600");
    }

    // --- shared ---

    /** Team A's names, other than those the request itself carries, must not appear in the answer. */
    private void searchForTeamA(String cell, String request, String answer) {
        if (answer == null) {
            return;
        }
        for (String secret : List.of(teamA, SECRET_DISPLAY, SECRET_JOB, SECRET_PROFILE, SECRET_PLAN, SECRET_HOOK,
                ENDED_JOB)) {
            if (!named(secret).matcher(request).find() && named(secret).matcher(answer).find()) {
                leak(cell + ": the answer names team A's " + secret + ": " + abbreviate(answer));
            }
        }
    }

    private static Pattern named(String name) {
        return Pattern.compile("(?<![A-Za-z0-9-])" + Pattern.quote(name) + "(?![A-Za-z0-9-])");
    }

    private static List<String> segments(String path) {
        return List.of(path.split("[/?&=]"));
    }

    private void note(boolean ok, String failure) {
        if (!ok) {
            failures.add(failure);
        }
    }

    private void leak(String what) {
        leaks++;
        failures.add("LEAK " + what);
    }

    private static void record(String name, int count) {
        COUNTS.put(name, count);
    }

    private String fingerprint() {
        return jdbc.sql(FINGERPRINT).query(String.class).single();
    }

    private String user(String username) {
        expect(api.put("/api/v1/admin/users/" + username, Map.of("displayName", "Iso", "password", PASSWORD)), 201, 200);
        return "/api/v1/admin/users/" + username;
    }

    private static Map<String, Object> profile() {
        return Map.of("instanceCount", 1, "instancePreferences", List.of(Map.of("instanceType", M5)));
    }

    private static Map<String, Object> plan(String team) {
        return Map.of("instanceType", "ml.p4d.24xlarge", "instanceCount", 1, "startTime", "2030-01-01T00:00:00Z",
                "endTime", "2030-02-01T00:00:00Z", "teams", List.of(team));
    }

    private static String abbreviate(String text) {
        if (text == null) {
            return "";
        }
        String flat = text.replaceAll("\\s+", " ");
        return flat.length() > 300 ? flat.substring(0, 300) + "…" : flat;
    }
}
