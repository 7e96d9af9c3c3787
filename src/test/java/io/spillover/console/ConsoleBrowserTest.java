package io.spillover.console;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.microsoft.playwright.APIResponse;
import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.BrowserType;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;
import com.microsoft.playwright.Route;
import com.microsoft.playwright.assertions.LocatorAssertions;
import com.microsoft.playwright.options.AriaRole;
import io.spillover.support.ApiTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The console in a real Chromium: sign in, submit through the preference editor, watch a pending job start
 * live, see every form's errors beside its inputs, stop a job, keep members out of admin pages, and read the
 * charts' axes, series and tooltips. Screenshots of the dashboard and a job page land in
 * {@code target/screenshots/}; the README and the guide show them from {@code docs/screenshots/}, where they are copied by hand.
 */
class ConsoleBrowserTest extends ApiTest {

    static final String P5 = "ml.p5.48xlarge";
    static final String P4D = "ml.p4d.24xlarge";
    static final String G6E = "ml.g6e.48xlarge";
    static final String PASSWORD = "browser-test-password";
    static final Path SCREENSHOTS = Paths.get("target", "screenshots");
    static final JsonMapper JSON = JsonMapper.builder().build();
    static final LocatorAssertions.HasTextOptions SOON = new LocatorAssertions.HasTextOptions().setTimeout(10_000);

    @Autowired
    JdbcClient jdbc;

    @Autowired
    io.spillover.tenancy.DemoTeams demoTeams;

    private static Playwright playwright;
    private static Browser browser;
    private BrowserContext context;
    private Page page;
    private String team;
    private String member;

    @BeforeAll
    static void launchChromium() {
        // The system's Chromium where there is one (CI installs Debian's); elsewhere Playwright's own browser.
        Path system = Paths.get("/usr/bin/chromium");
        boolean useSystem = Files.isExecutable(system);
        playwright = Playwright.create(new Playwright.CreateOptions()
                .setEnv(useSystem ? Map.of("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1") : Map.of()));
        var options = new BrowserType.LaunchOptions().setHeadless(true).setArgs(List.of("--no-sandbox",
                "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--no-first-run"));
        if (useSystem) {
            options.setExecutablePath(system);
        }
        browser = playwright.chromium().launch(options);
    }

    @AfterAll
    static void closeChromium() {
        browser.close();
        playwright.close();
    }

    @BeforeEach
    void aSignedInMember() {
        capacity(P5, 1);
        capacity(P4D, 4);
        capacity(G6E, 4);
        team = team(Map.of(P5, 2, P4D, 4, G6E, 4));
        member = "member-" + team;
        expect(api.put("/api/v1/admin/users/" + member, Map.of("displayName", "Member", "password", PASSWORD)), 201);
        expect(api.put("/api/v1/admin/users/" + member + "/memberships/" + team, Map.of("role", "TEAM_ADMIN")), 200);
        context = browser.newContext(new Browser.NewContextOptions().setViewportSize(1280, 900));
        page = context.newPage();
        signIn(member);
    }

    @AfterEach
    void closePage() {
        context.close();
    }

    @Test
    void submitsAThreeEntryListAndSeesItPlacedOnTheSecondEntry() {
        page.navigate(url("/teams/" + team + "/jobs/new"));
        page.fill("#name", "from-browser");
        fillEntry(0, P5, "2");
        page.click("[data-add]");
        fillEntry(1, P4D, "4");
        page.click("[data-add]");
        fillEntry(2, G6E, "4");
        page.click("summary");
        page.fill("#runtime", "3600");

        page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Explain")).click();
        assertThat(page.locator("#explain")).containsText("Would start now on entry 1", new LocatorAssertions.ContainsTextOptions().setTimeout(10_000));
        page.click("button.primary");

        assertThat(page.locator("#selection")).hasText("entry 1: 4 × " + P4D + " in us-east-1 (on-demand)", SOON);
        assertThat(page.locator("#job-panel .status")).hasText("RUNNING", SOON);
        page.screenshot(new Page.ScreenshotOptions().setPath(SCREENSHOTS.resolve("job.png")).setFullPage(true));
    }

    @Test
    void aPendingJobFlipsToStartingLiveWhenCapacityFrees() {
        submit(team, job("holder", entry(P4D, 4)));
        awaitStatus(team, "holder", "RUNNING");
        submit(team, job("waiting", entry(P4D, 4)));
        page.navigate(url("/teams/" + team + "/jobs/waiting"));
        assertThat(page.locator("#job-panel .status")).hasText("PENDING");

        expect(api.post("/api/v1/teams/" + team + "/jobs/holder/stop", Map.of()), 200);

        assertThat(page.locator("#job-panel .status")).hasText(java.util.regex.Pattern.compile("STARTING|RUNNING"), SOON);
        page.navigate(url("/"));
        assertThat(page.locator("#running")).containsText("waiting");
    }

    @Test
    void aPendingJobsPageDrawsItsEstimatedStartAgainstItsDeadlineAndTheQueueShowsIt() {
        submit(team, job("holder", entry(P4D, 4)));
        awaitStatus(team, "holder", "RUNNING");
        var waiting = job("estimated", entry(P4D, 4));
        waiting.put("expectedRuntimeSeconds", 1800);
        waiting.put("maxPendingTimeInSeconds", 86_400);
        submit(team, waiting);
        page.navigate(url("/teams/" + team + "/jobs/estimated"));

        assertThat(page.locator("#estimate-basis")).containsText("first in line on " + P4D,
                new LocatorAssertions.ContainsTextOptions().setTimeout(10_000));
        JsonNode drawn = chart("#estimate-chart");
        JsonNode job = describe(team, "estimated");
        JsonNode estimate = job.get("estimatedStart");
        assertAxis(drawn.get("x"), "start (UTC)", "time");
        assertThat(strings(drawn.at("/y/categories"))).containsExactly("this job");
        assertThat(seriesNames(drawn)).containsExactly("likely start (p10–p90)", "median (p50)", "deadline");
        assertThat(drawn.at("/series/0/data/0/0").asLong()).isEqualTo(millis(estimate.get("p10")));
        assertThat(drawn.at("/series/0/data/1/0").asLong()).isEqualTo(millis(estimate.get("p90")));
        assertThat(drawn.at("/series/1/data/0/0").asLong()).isEqualTo(millis(estimate.get("p50")));
        assertThat(drawn.at("/series/2/markers/0").asLong()).isEqualTo(millis(job.get("pendingDeadline")));
        assertThat(page.locator("#estimate-entry")).hasText("0: 4 × " + P4D);
        page.screenshot(new Page.ScreenshotOptions().setPath(SCREENSHOTS.resolve("job-estimate.png")).setFullPage(true));

        page.navigate(url("/"));
        String p50 = java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'")
                .withZone(java.time.ZoneOffset.UTC).format(Instant.ofEpochMilli(millis(estimate.get("p50"))));
        assertThat(page.locator("#pending tr", new Page.LocatorOptions().setHasText("estimated")).locator("td.estimate"))
                .containsText(p50, new LocatorAssertions.ContainsTextOptions().setTimeout(10_000));
    }

    private static long millis(JsonNode instant) {
        return Instant.parse(instant.asString()).toEpochMilli();
    }

    @Test
    void theDashboardChartsHaveTitledAxesNamedSeriesAndTooltips() {
        submit(team, job("first", entry(P4D, 4)));
        awaitStatus(team, "first", "RUNNING");
        page.navigate(url("/"));

        JsonNode waits = chart("#wait-chart");
        assertAxis(waits.get("x"), "wait before placement", "category");
        assertThat(strings(waits.at("/x/categories")))
                .containsExactly("< 1 s", "1–10 s", "10 s–1 min", "1–10 min", "10 min–1 h", "≥ 1 h");
        assertAxis(waits.get("y"), "jobs", "value");
        assertThat(seriesNames(waits)).containsExactly("jobs");
        assertThat(waits.at("/series/0/points").asInt()).isEqualTo(6);
        assertThat(total(waits.at("/series/0/data"))).isEqualTo(1);
        assertThat(waits.get("legend").isEmpty()).isTrue();

        JsonNode use = chart("#use-chart");
        assertAxis(use.get("x"), "time (UTC)", "time");
        assertAxis(use.get("y"), "instances", "value");
        assertThat(seriesNames(use)).containsExactly(team);
        assertThat(use.at("/series/0/points").asInt()).as("an hour in steps of 5 min").isEqualTo(13);
        assertThat(use.at("/series/0/data/12/1").asInt()).as("now").isEqualTo(4);
        assertThat(use.at("/series/0/stack").asString()).isEqualTo("total");

        JsonNode usage = chart("#usage-chart");
        assertAxis(usage.get("x"), "instances", "value");
        assertAxis(usage.get("y"), "instance type", "category");
        List<String> types = strings(usage.at("/y/categories"));
        assertThat(types).containsExactlyInAnyOrder(P5, P4D, G6E);
        assertThat(seriesNames(usage)).containsExactly("in use", "quota");
        assertThat(strings(usage.get("legend"))).containsExactly("in use", "quota");
        assertThat(usage.at("/series/0/data/" + types.indexOf(P4D)).asInt()).isEqualTo(4);
        assertThat(usage.at("/series/1/data/" + types.indexOf(P5)).asInt()).isEqualTo(2);

        // What the reader sees, not only what the library was given: the titles and legend are drawn.
        assertThat(page.locator("#use-chart svg text").filter(new Locator.FilterOptions().setHasText("time (UTC)")))
                .hasCount(1);
        assertThat(page.locator("#usage-chart svg text").filter(new Locator.FilterOptions().setHasText("quota")))
                .not().hasCount(0);
        assertThat(page.locator("#wait-chart")).hasAttribute("aria-label", java.util.regex.Pattern.compile(
                "Wait before placement, last 24 h\\. jobs: < 1 s \\d, 1–10 s \\d, 10 s–1 min \\d, .*, ≥ 1 h \\d"));

        int waited = strings(waits.at("/series/0/data")).indexOf("1");
        Locator tooltip = tooltipOnHover("#wait-chart", "[" + waited + ", 0.5]");
        assertThat(tooltip).containsText(strings(waits.at("/x/categories")).get(waited));
        assertThat(tooltip).containsText("jobs: 1");
        assertThat(tooltipOnHover("#usage-chart", "[1, " + types.indexOf(P4D) + "]")).containsText("in use: 4");
    }

    @Test
    void theDashboardChartsAreRedrawnWithNewDataOnALiveUpdate() {
        submit(team, job("first", entry(P4D, 4)));
        awaitStatus(team, "first", "RUNNING");
        page.navigate(url("/"));
        assertThat(chart("#use-chart").at("/series/0/data/12/1").asInt()).isEqualTo(4);

        submit(team, job("second", entry(G6E, 2)));

        page.waitForFunction("() => window.spilloverCharts.describe('#use-chart')?.series[0].data[12][1] === 6",
                null, new Page.WaitForFunctionOptions().setTimeout(10_000));
        page.waitForFunction("() => window.spilloverCharts.describe('#wait-chart')?.series[0].data"
                + ".reduce((a, b) => a + b) === 2", null, new Page.WaitForFunctionOptions().setTimeout(10_000));
        JsonNode usage = chart("#usage-chart");
        assertThat(usage.at("/series/0/data/" + strings(usage.at("/y/categories")).indexOf(G6E)).asInt())
                .isEqualTo(2);
        assertThat(page.locator("#use-chart svg")).hasCount(1);
        page.screenshot(new Page.ScreenshotOptions().setPath(SCREENSHOTS.resolve("dashboard.png")).setFullPage(true));
    }

    /**
     * The chart kinds no page draws yet (the what-if page's wait CDFs, the job page's start estimate against its
     * deadline), drawn by the console's own scripts from specs in a page of the test's making.
     */
    @Test
    void theChartScriptDrawsCdfsAndIntervalsAndEscapesWhatItShows() {
        // The scripts exactly as the layout loads them, from the running service.
        List<?> scripts = (List<?>) page.locator("head script[src]").evaluateAll("s => s.map(e => e.outerHTML)");
        long from = Instant.parse("2026-01-15T10:00:00Z").toEpochMilli();
        long minute = 60_000;
        String cdf = """
                {"kind": "cdf", "title": "Wait with and without the change", "x": {"name": "wait", "unit": "min"},
                 "y": {"name": "jobs started", "unit": "%"}, "series": [
                  {"name": "today <i>now</i>", "data": [[0, 0], [1, 0.2], [5, 0.5], [30, 0.8], [120, 1]]},
                  {"name": "with the change", "data": [[0, 0], [2, 0.7], [10, 0.9], [40, 1]]}]}""";
        String interval = """
                {"kind": "interval", "title": "Start estimate", "x": {"name": "start", "unit": "UTC"},
                 "band": "likely start (p10–p90)", "mid": "median (p50)",
                 "rows": [{"label": "<b>this job</b>", "low": %d, "mid": %d, "high": %d}],
                 "marker": {"name": "deadline", "at": %d}}""".formatted(from, from + 30 * minute, from + 90 * minute,
                from + 120 * minute);
        String fixture = "<!DOCTYPE html><html><head><meta charset=utf-8>"
                + scripts.stream().map(String::valueOf).collect(Collectors.joining())
                + "<link rel=stylesheet href='/css/spillover.css'></head><body><main>"
                + "<div class=chart id=cdf data-chart='" + attribute(cdf) + "'></div>"
                + "<div class=chart id=interval data-chart='" + attribute(interval) + "'></div></main></body></html>";
        page.route(url("/chart-fixture"), route -> route.fulfill(new Route.FulfillOptions()
                .setContentType("text/html").setBody(fixture)));
        page.navigate(url("/chart-fixture"));

        JsonNode waits = chart("#cdf");
        assertAxis(waits.get("x"), "wait (min)", "value");
        assertAxis(waits.get("y"), "jobs started (%)", "value");
        assertThat(seriesNames(waits)).containsExactly("today <i>now</i>", "with the change");
        assertThat(strings(waits.get("legend"))).containsExactly("today <i>now</i>", "with the change");
        assertThat(waits.at("/series/0/points").asInt()).isEqualTo(5);
        assertThat(waits.at("/series/1/points").asInt()).isEqualTo(4);
        assertThat(waits.at("/series/0/step").asString()).isEqualTo("end");
        hover("#cdf", "[10, 0.5]");
        Locator cdfTip = page.locator("#cdf .chart-tooltip");
        assertThat(cdfTip).containsText("wait ≤");
        assertThat(cdfTip).containsText("today <i>now</i>: 50 %");
        assertThat(cdfTip).containsText("with the change: 90 %");
        assertThat(cdfTip.locator("i")).hasCount(0);

        JsonNode start = chart("#interval");
        assertAxis(start.get("x"), "start (UTC)", "time");
        assertThat(strings(start.at("/y/categories"))).containsExactly("<b>this job</b>");
        assertThat(seriesNames(start)).containsExactly("likely start (p10–p90)", "median (p50)", "deadline");
        assertThat(start.at("/series/0/data/0/0").asLong()).isEqualTo(from);
        assertThat(start.at("/series/0/data/1/0").asLong()).isEqualTo(from + 90 * minute);
        assertThat(start.at("/series/1/data/0/0").asLong()).isEqualTo(from + 30 * minute);
        assertThat(start.at("/series/2/markers/0").asLong()).isEqualTo(from + 120 * minute);
        hover("#interval", "[" + (from + 30 * minute) + ", 0]");
        Locator startTip = page.locator("#interval .chart-tooltip");
        assertThat(startTip).containsText("<b>this job</b>");
        assertThat(startTip).containsText("likely start (p10–p90): 2026-01-15 10:00 UTC – 2026-01-15 11:30 UTC");
        assertThat(startTip).containsText("median (p50): 2026-01-15 10:30 UTC");
        assertThat(startTip).containsText("deadline: 2026-01-15 12:00 UTC");
        assertThat(startTip.locator("b")).hasCount(0);
        page.screenshot(new Page.ScreenshotOptions().setPath(SCREENSHOTS.resolve("chart-kinds.png")).setFullPage(true));
    }

    /**
     * The redraw the stream's first event asks for can still be on its way, with the old status, when the job
     * starts: the start's own redraw must follow it rather than be dropped with the element it replaced.
     */
    @Test
    void aStartThatArrivesWhileTheFirstRedrawIsInFlightIsStillShown() {
        submit(team, job("holder", entry(P4D, 4)));
        awaitStatus(team, "holder", "RUNNING");
        submit(team, job("late", entry(P4D, 4)));
        page.addInitScript("window.sseData = []; document.addEventListener('htmx:sseMessage',"
                + " e => window.sseData.push(e.detail.data));");
        Route[] held = new Route[1];
        APIResponse[] stale = new APIResponse[1];
        page.route("**/jobs/late/panel", route -> {
            if (held[0] != null) {
                route.resume();
                return;
            }
            stale[0] = route.fetch();
            held[0] = route;
        });

        page.navigate(url("/teams/" + team + "/jobs/late"));
        page.waitForCondition(() -> held[0] != null);
        assertThat(stale[0].text()).contains("PENDING");
        expect(api.post("/api/v1/teams/" + team + "/jobs/holder/stop", Map.of()), 200);
        awaitStatus(team, "late", "RUNNING");
        page.waitForFunction("window.sseData.includes('RUNNING')");
        held[0].fulfill(new Route.FulfillOptions().setResponse(stale[0]));

        assertThat(page.locator("#job-panel .status")).hasText("RUNNING", SOON);
    }

    @Test
    void showsValidationErrorsInlineAndStoresNothing() {
        page.navigate(url("/teams/" + team + "/jobs/new"));
        page.fill("#name", "too-big");
        fillEntry(0, P5, "2");
        page.click("[data-add]");
        fillEntry(1, P4D, "8");
        page.click("button.primary");

        Locator error = page.locator("#preferences .entry").nth(1).locator(".error");
        assertThat(error).containsText("team quota for " + P4D + " allows 4 instances, not 8");
        assertThat(page.locator("#entry-count-1")).hasValue("8");
        assertThat(api.get("/api/v1/teams/" + team + "/jobs").json().get("totalItems").asInt()).isZero();
    }

    @Test
    void everyFormShowsItsErrorsBesideItsInputsKeepingWhatWasTyped() {
        page.navigate(url("/teams/" + team + "/profiles"));
        page.fill("#pname", "Not A Name");
        page.fill("#pentries", "ml.nonsense 2");
        page.click("form:has(#pname) button.primary");

        assertThat(page.locator("#name-error")).containsText("lowercase letters");
        assertThat(page.locator("#entries-error")).containsText("ml.nonsense");
        assertThat(page.locator("#pname")).hasValue("Not A Name");
        assertThat(page.locator(".flash.bad")).hasCount(0);

        page.navigate(url("/teams/" + team + "/jobs/new"));
        fillEntry(0, P4D, "8");
        page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Explain")).click();

        assertThat(page.locator("#preferences .entry").first().locator(".error"))
                .containsText("team quota for " + P4D + " allows 4 instances, not 8");
        page.click("[data-add]");
        assertThat(page.locator("#preferences .entry")).hasCount(2);
    }

    @Test
    void stopsAJobFromItsPage() {
        submit(team, job("to-stop", entry(G6E, 1)));
        awaitStatus(team, "to-stop", "RUNNING");
        page.navigate(url("/teams/" + team + "/jobs/to-stop"));

        page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Stop")).click();

        assertThat(page.locator("#job-panel .status")).hasText("STOPPED", SOON);
        assertThat(page.locator("#status-message")).containsText("STOPPED_BY_USER");
    }

    @Test
    void aMemberCannotReachAdminPagesOrAnotherTeam() {
        String other = team(Map.of());

        page.navigate(url("/admin/teams"));
        assertThat(page.locator("h1")).hasText("Not allowed");
        assertThat(page.locator("nav[aria-label=Main]")).not().containsText("Admin");
        var response = page.navigate(url("/teams/" + other + "/jobs"));
        assertThat(response.status()).isEqualTo(404);
    }

    @Test
    void everyPageRenders() {
        submit(team, job("shown", entry(G6E, 1)));
        expect(api.put("/api/v1/admin/users/" + member, Map.of("displayName", "Member", "platformAdmin", true)), 200);
        var scriptErrors = new ArrayList<String>();
        page.onPageError(scriptErrors::add);
        for (String path : List.of("/", "/teams/" + team + "/jobs", "/teams/" + team + "/jobs?status=RUNNING",
                "/teams/" + team + "/jobs/new", "/teams/" + team + "/jobs/shown", "/teams/" + team + "/profiles",
                "/teams/" + team + "/plans", "/teams/" + team + "/tokens", "/teams/" + team + "/webhooks",
                "/admin/teams", "/admin/users",
                "/admin/plans", "/admin/fleet", "/admin/what-if")) {
            var response = page.navigate(url(path));
            assertThat(response.status()).as(path).isEqualTo(200);
            assertThat(page.locator("h1").first()).not().hasText("Whitelabel Error Page");
        }
        assertThat(scriptErrors).as("errors of the pages' scripts").isEmpty();
    }

    /**
     * A what-if run over the platform's own history (a team's four jobs wanting the one p5, each after the other)
     * with the p5's capacity doubled (and precedence never lapsing, which single-entry lists do not feel): the run's
     * page shows its progress bar reach done, the changes, the table of waits baseline against change, and the two
     * wait CDFs in one chart, with the figures the API gives for the same run.
     */
    @Test
    void aWhatIfRunOverTheHistoryWithAnOfferingDoubledShowsItsProgressTableAndCdfs() {
        Instant from = Instant.now();
        var names = new ArrayList<String>();
        for (int i = 0; i < 4; i++) {
            var body = new java.util.HashMap<>(job("history-" + i, entry(P5, 1)));
            body.put("local", Map.of("runtimeSeconds", 1));
            names.add(submit(team, body).get("name").asString());
        }
        names.forEach(name -> org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30))
                .pollInterval(java.time.Duration.ofMillis(50))
                .until(() -> describe(team, name).get("status").asString().equals("COMPLETED")));
        Instant to = Instant.now();
        expect(api.put("/api/v1/admin/users/" + member, Map.of("displayName", "Member", "platformAdmin", true)), 200);
        String p5 = "on-demand " + P5 + " in us-east-1";

        page.navigate(url("/admin/what-if"));
        page.fill("#from", from.toString());
        page.fill("#to", to.toString());
        page.fill("input[data-offering='" + p5 + "']", "2");
        assertThat(page.locator("#q-precedenceLapse")).hasValue("2");
        page.fill("#q-precedenceLapse", "0");
        assertThat(page.locator("#q-holdAfterRun")).hasValue("on");
        page.selectOption("#q-holdAfterRun", "off");
        page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Start what-if run")).click();

        assertThat(page.locator("#run-status")).hasText("DONE", SOON);
        assertThat(page.locator("#progress")).hasAttribute("value", "100");
        assertThat(page.locator("#progress-text")).hasText("100 %");
        assertThat(page.locator("#run-changes")).containsText(p5 + ": 1 → 2 instance(s)");
        assertThat(page.locator("#run-changes")).containsText("queue policy: precedence lapses at response ratio 2.0"
                + " → never, holds after 86400 s and the expected run → after 86400 s");
        assertThat(page.locator("#run-input")).containsText("4 jobs of 1 team(s)");
        String id = page.url().substring(page.url().lastIndexOf('/') + 1);
        JsonNode run = expect(api.get("/api/v1/admin/what-if/" + id), 200).json();

        // the table: the same figures as the API's, the change's waits shorter
        Locator teamRow = page.locator("#by-team tr[data-row='" + team + "']");
        assertThat(teamRow.locator("td[data-figure=jobs]")).hasCount(2);
        JsonNode baselineTeam = run.at("/result/baseline/byTeam/0");
        JsonNode changeTeam = run.at("/result/change/byTeam/0");
        assertThat(baselineTeam.get("name").asString()).isEqualTo(team);
        List<Double> shown = seconds(teamRow);
        assertThat(shown).containsExactly(baselineTeam.at("/waits/mean").asDouble(),
                baselineTeam.at("/waits/p50").asDouble(), baselineTeam.at("/waits/p95").asDouble(),
                baselineTeam.at("/waits/p99").asDouble(), changeTeam.at("/waits/mean").asDouble(),
                changeTeam.at("/waits/p50").asDouble(), changeTeam.at("/waits/p95").asDouble(),
                changeTeam.at("/waits/p99").asDouble());
        assertThat(shown.get(4)).as("mean wait with the change").isLessThan(shown.get(0));
        assertThat(shown.get(7)).as("p99 wait with the change").isLessThan(shown.get(3));
        Locator offeringRow = page.locator("#by-offering tr[data-row='" + p5 + "']");
        assertThat(offeringRow.locator("td[data-figure=started]").first()).hasText("4");
        assertThat(page.locator("#overall td[data-figure=started]").last()).hasText("4");

        // the chart: both CDFs, named, with the API's points
        JsonNode cdf = chart("#whatif-cdf");
        assertAxis(cdf.get("y"), "jobs started (%)", "value");
        assertThat(cdf.at("/x/name").asString()).startsWith("wait (");
        assertThat(seriesNames(cdf)).containsExactly("baseline (now)", "with the change");
        assertThat(strings(cdf.get("legend"))).containsExactly("baseline (now)", "with the change");
        assertThat(cdf.at("/series/0/step").asString()).isEqualTo("end");
        assertThat(cdf.at("/series/0/points").asInt()).isEqualTo(run.at("/result/baseline/waitCdf").size());
        assertThat(cdf.at("/series/1/points").asInt()).isEqualTo(run.at("/result/change/waitCdf").size());
        assertThat(cdf.at("/series/0/points").asInt()).isGreaterThan(1);
        page.screenshot(new Page.ScreenshotOptions().setPath(SCREENSHOTS.resolve("what-if.png")).setFullPage(true));
    }

    /**
     * The demo as a newcomer meets it on the embedded default: the demo teams and the demo fleet's capacity, a
     * platform admin's click on the dashboard, and within half a minute, told live on the dashboard: a job that
     * fell back, one waiting for its first choice and getting it, a queue with estimated starts, and a job whose
     * estimate lies past its deadline giving up at it. Then Stop ends the demo and each of its jobs. Its
     * screenshots are the README's tour.
     */
    @Test
    void theDemoShowsAFallbackAWaitForTheFirstChoiceAQueueWithEstimatesAndADeadlineAndStops() {
        demoTeams.seed();
        capacity(P5, 1);
        capacity(P4D, 4);
        capacity("ml.p4de.24xlarge", 2);
        capacity(G6E, 4);
        expect(api.put("/api/v1/admin/users/" + member, Map.of("displayName", "Member", "platformAdmin", true)), 200);
        var told = new LocatorAssertions.ContainsTextOptions().setTimeout(30_000);
        try {
            page.navigate(url("/"));
            assertThat(page.locator("#demo")).containsText("Two minutes of a scripted workload");
            page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Start the demo")).click();

            Locator lines = page.locator("#demo-lines");
            assertThat(page.locator("#demo-state")).containsText("is running", told);
            assertThat(lines).containsText("fell back to entry 1, 4 × " + P4D + " (on-demand)", told);
            assertThat(lines).containsText("entry 0 did not fit, on-demand " + P5, told);
            assertThat(lines).containsText("-patient waits: entry 0", told);
            assertThat(lines).containsText("-queue-1: likely start", told);
            assertThat(lines).containsText("past its deadline", told);
            assertThat(page.locator("#pending tr", new Page.LocatorOptions().setHasText("-queue-3"))
                    .locator("td.estimate")).containsText("UTC", told);
            assertThat(lines).containsText("-patient got its first choice, 1 × " + P5, told);
            assertThat(lines).containsText("-deadline gave up at its deadline", told);
            // the demo's story and the queue beside what runs, as the top of the dashboard shows them
            page.setViewportSize(1280, 1600);
            page.screenshot(new Page.ScreenshotOptions().setPath(SCREENSHOTS.resolve("demo.png")));
            page.setViewportSize(1280, 900);

            JsonNode demo = expect(api.get("/api/v1/admin/demo"), 200).json();
            assertThat(demo.get("status").asString()).isEqualTo("RUNNING");
            String fallback = "demo-" + demo.get("run").asString() + "-fallback";
            page.navigate(url("/teams/vision/jobs/" + fallback));
            assertThat(page.locator("#selection")).hasText("entry 1: 4 × " + P4D + " in us-east-1 (on-demand)", SOON);
            page.screenshot(new Page.ScreenshotOptions().setPath(SCREENSHOTS.resolve("demo-fallback.png"))
                    .setFullPage(true));

            page.navigate(url("/"));
            page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Stop the demo")).click();
            assertThat(page.locator("#demo-state")).containsText("was stopped", told);
            assertThat(page.locator("#demo-lines")).containsText("Stopped by " + member);
            for (JsonNode job : expect(api.get("/api/v1/admin/demo"), 200).json().get("jobs")) {
                String[] teamAndName = job.asString().split("/");
                awaitStatus(teamAndName[0], teamAndName[1], "STOPPED", "COMPLETED");
            }
            assertThat(page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Start the demo")))
                    .isVisible();
        } finally {
            api.post("/api/v1/admin/demo:stop", Map.of());
        }
    }

    /** The waits of a row of a what-if table, in seconds, baseline then change: mean, p50, p95, p99. */
    private static List<Double> seconds(Locator row) {
        List<?> values = (List<?>) row.locator("td[data-seconds]").evaluateAll("cells => cells.map(c => c.dataset.seconds)");
        return values.stream().map(v -> Double.valueOf(String.valueOf(v))).toList();
    }

    @Test
    void theAdminTeamsPageShowsEachTeamsUsageAgainstItsShare() {
        expect(api.put("/api/v1/admin/users/" + member, Map.of("displayName", "Member", "platformAdmin", true)), 200);

        page.navigate(url("/admin/teams"));

        var share = page.locator("td.share[data-team=" + team + "]");
        assertThat(share).containsText("of usage, share");
        assertThat(share).containsText("(weight 1)");
        assertThat(share.locator("meter")).hasCount(1);
        page.screenshot(new Page.ScreenshotOptions().setPath(SCREENSHOTS.resolve("admin-teams.png")).setFullPage(true));
    }

    @Test
    void anAdminLetsATeamBorrowAndTheConsoleMarksWhatItBorrows() {
        expect(api.put("/api/v1/admin/users/" + member, Map.of("displayName", "Member", "platformAdmin", true)), 200);
        page.navigate(url("/admin/teams"));
        page.fill("#tn", team);
        page.fill("#td", "Borrowing");
        page.fill("#tl", P5 + "=2\n" + P4D + "=4\n" + G6E + "=4");
        page.selectOption("#ts", "RESERVE");
        page.fill("#tbp", "50");
        page.click("form:has(#tn) button.primary");
        assertThat(page.locator("#sharing-error")).containsText("borrow limits are for a team that borrows");
        assertThat(page.locator("#tbp")).hasValue("50");

        page.selectOption("#ts", "LEND_AND_BORROW");
        page.click("form:has(#tn) button.primary");

        assertThat(page.locator(".flash.ok")).containsText("Saved team " + team);
        assertThat(page.locator("td.sharing[data-team=" + team + "]"))
                .containsText("LEND_AND_BORROW borrows up to 50 % of each guarantee");
        capacity(P4D, 6);
        var bounded = job("borrowing", entry(P4D, 6));
        bounded.put("maxRuntimeInSeconds", 3600);
        submit(team, bounded);
        awaitStatus(team, "borrowing", "RUNNING");

        page.navigate(url("/"));
        assertThat(page.locator("#running tr:has-text('borrowing') .badge.borrowed")).hasText("2 borrowed");
        var usage = page.locator("#usage tr[data-team=" + team + "][data-type='" + P4D + "']");
        assertThat(usage.locator(".in-use")).hasText("6");
        assertThat(usage.locator(".guarantee")).hasText("4");
        assertThat(usage.locator(".borrowed")).hasText("2");
        page.navigate(url("/teams/" + team + "/jobs/borrowing"));
        assertThat(page.locator("#selection .badge.borrowed")).hasText("2 borrowed");
        assertThat(page.locator("#preemption")).hasText("not preemptible");
        page.navigate(url("/admin/teams"));
        assertThat(page.locator("td.use[data-team=" + team + "]"))
                .containsText(P4D + ": 6 in use of 4 guaranteed, 2 borrowed, 0 lent");
    }

    @Test
    void aTeamAdminCreatesATokenAndSeesItsSecretOnce() {
        page.navigate(url("/teams/" + team + "/tokens"));
        page.fill("#tname", "ci");
        page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Create token")).click();

        String secret = page.locator("#secret").textContent();
        assertThat(secret).startsWith("spl_");
        assertThat(api.as(secret).get("/api/v1/teams/" + team + "/jobs").status()).isEqualTo(200);
        page.reload();
        assertThat(page.locator("#secret")).hasCount(0);
    }

    @Test
    void aTeamAdminMakesAWebhookSeesItsSecretOncePingsItAndRedeliversAFailedDelivery() {
        try (var receiver = new io.spillover.support.WebhookReceiver()) {
            receiver.answering(r -> new io.spillover.support.WebhookReceiver.Answer(500, java.time.Duration.ZERO));
            page.navigate(url("/teams/" + team + "/webhooks"));
            page.fill("#wname", "ci");
            page.fill("#wurl", receiver.url("/ci"));
            page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Save webhook")).click();

            String secret = page.locator("#secret").textContent();
            assertThat(secret).startsWith("whsec_");
            receiver.secret(secret);
            assertThat(page.locator("#webhook-ci")).containsText("job.pending-timeout");

            page.locator("#webhook-ci").getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions()
                    .setName("Send a ping")).click();
            assertThat(page.locator("#deliveries")).containsText("io.spillover.webhook.ping");
            await().atMost(java.time.Duration.ofSeconds(10)).until(() -> receiver.received().size() >= 1);
            long delivery = api.get("/api/v1/teams/" + team + "/webhooks/ci/deliveries").json().get(0).get("id")
                    .asLong();
            jdbc.sql("UPDATE webhook_deliveries SET state = 'FAILED', done_at = now() WHERE id = ?").param(delivery)
                    .update();
            receiver.answering(r -> io.spillover.support.WebhookReceiver.Answer.ok());
            page.reload();
            assertThat(page.locator("#delivery-" + delivery)).containsText("500");
            assertThat(page.locator("#delivery-" + delivery)).containsText("answered 500");

            page.locator("#delivery-" + delivery).getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions()
                    .setName("Redeliver")).click();
            assertThat(page.locator(".flash.ok")).containsText("Sent delivery " + delivery + " again");
            await().atMost(java.time.Duration.ofSeconds(10)).until(() -> receiver.accepted().size() == 1);
            assertThat(receiver.accepted().get(0).verified()).isTrue();
            page.reload();
            assertThat(page.locator("#deliveries")).containsText("DELIVERED");
            page.screenshot(new Page.ScreenshotOptions().setPath(SCREENSHOTS.resolve("webhooks.png")).setFullPage(true));

            page.navigate(url("/teams/" + team + "/webhooks"));
            assertThat(page.locator("#secret")).hasCount(0);
        }
    }

    @Test
    void signsOut() {
        page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Sign out")).click();

        assertThat(page.locator("[role=status]")).hasText("You have signed out.");
        page.navigate(url("/"));
        assertThat(page).hasURL(java.util.regex.Pattern.compile(".*/login$"));
    }

    /** The chart in the element as the chart script reports it: axes, legend, and each series and its data. */
    /** The chart as drawn, read in one go: a live redraw may replace it between two looks. */
    private JsonNode chart(String selector) {
        return JSON.readTree((String) page.waitForFunction("s => { const drawn = window.spilloverCharts?.describe(s);"
                + " return drawn ? JSON.stringify(drawn) : null; }", selector).jsonValue());
    }

    /** Moves the mouse over the point (in the chart's data coordinates, as JSON) of the chart's first series. */
    private void hover(String selector, String point) {
        List<?> pixel = (List<?>) page.waitForFunction("([s, p]) => { const chart = echarts.getInstanceByDom("
                + "document.querySelector(s)); return chart && chart.convertToPixel({seriesIndex: 0}, JSON.parse(p)); }",
                List.of(selector, point)).jsonValue();
        // the locator is found again if a live redraw replaced the chart meanwhile
        page.locator(selector).hover(new Locator.HoverOptions().setPosition(((Number) pixel.get(0)).doubleValue(),
                ((Number) pixel.get(1)).doubleValue()));
    }

    /**
     * The dashboard's chart's tooltip once the pointer rests on the point. A live update may redraw the chart
     * (the page refreshes once when its event stream connects), taking the tooltip with it: then the pointer
     * moves onto the new chart.
     */
    private Locator tooltipOnHover(String selector, String point) {
        Locator tooltip = page.locator(selector + " .chart-tooltip");
        await().atMost(java.time.Duration.ofSeconds(10)).ignoreExceptions().untilAsserted(() -> {
            page.mouse().move(0, 0);
            hover(selector, point);
            assertThat(tooltip).isVisible(new LocatorAssertions.IsVisibleOptions().setTimeout(1_000));
        });
        return tooltip;
    }

    private static void assertAxis(JsonNode axis, String name, String type) {
        assertThat(axis.get("name").asString()).isEqualTo(name);
        assertThat(axis.get("type").asString()).isEqualTo(type);
    }

    private static List<String> seriesNames(JsonNode chart) {
        var names = new ArrayList<String>();
        chart.get("series").forEach(series -> names.add(series.get("name").asString()));
        return names;
    }

    private static List<String> strings(JsonNode array) {
        var values = new ArrayList<String>();
        array.forEach(value -> values.add(value.asString()));
        return values;
    }

    private static long total(JsonNode array) {
        long sum = 0;
        for (JsonNode value : array) {
            sum += value.asLong();
        }
        return sum;
    }

    /** Text for an HTML attribute in single quotes. */
    private static String attribute(String text) {
        return text.replace("&", "&amp;").replace("'", "&#39;");
    }

    private void fillEntry(int index, String type, String count) {
        page.fill("#entry-type-" + index, type);
        page.fill("#entry-count-" + index, count);
    }

    private void signIn(String username) {
        page.navigate(url("/login"));
        page.fill("#username", username);
        page.fill("#password", PASSWORD);
        page.click("button[type=submit]");
        assertThat(page.locator("h1")).hasText("Dashboard");
    }

    private String url(String path) {
        return "http://localhost:" + port() + path;
    }
}
