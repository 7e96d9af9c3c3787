package io.spillover.estimates;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import io.spillover.jobs.JobEstimates;
import io.spillover.placement.OfferingKey;
import io.spillover.scheduling.PlacementActivity;
import io.spillover.support.ApiTest;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;

/**
 * Pending jobs' estimated starts through the API: worked out by the scheduling instance as jobs change, only where a
 * change can move them, on connections of its own; shown while a job waits, and sent on its event stream when they
 * move.
 */
class EstimatedStartTest extends ApiTest {

    static final String G5 = "ml.g5.12xlarge";
    static final String G5_48 = "ml.g5.48xlarge";
    /** The test profile's {@code spillover.estimates.window}. */
    static final int WINDOW = 20;

    private final HttpClient http = HttpClient.newHttpClient();

    @Autowired
    private JdbcClient jdbc;

    @Autowired
    private StartEstimator estimator;

    @Autowired
    private DataSource dataSource;

    @Autowired
    private PlacementActivity placement;

    @Autowired
    private JobEstimates estimates;

    @Test
    void aPendingJobsEstimateIsAnIntervalOnAnEntryWithItsBasisAndAStartedJobHasNone() {
        String team = twoWaitingBehindAHolder();

        JsonNode later = awaitEstimate(team, "later");

        Instant p10 = Instant.parse(later.get("p10").asString());
        Instant p50 = Instant.parse(later.get("p50").asString());
        Instant p90 = Instant.parse(later.get("p90").asString());
        assertThat(p10).isBeforeOrEqualTo(p50);
        assertThat(p50).isBeforeOrEqualTo(p90);
        assertThat(p50).as("behind the holder's rest and next's run").isAfter(Instant.now().plus(Duration.ofMinutes(30)));
        assertThat(later.get("entry").asInt()).isZero();
        assertThat(later.get("basis").asString()).startsWith("1 job ahead on " + G5 + "; 1 running there ends in ~")
                .contains("its user's hint");
        assertThat(later.get("pastDeadline").asBoolean()).isFalse();
        assertThat(describe(team, "later").get("expectedRuntimeSeconds").asLong()).isEqualTo(1800);
        assertThat(describe(team, "holder").get("estimatedStart").isNull()).as("a started job has none").isTrue();

        JsonNode listed = expect(api.get("/api/v1/teams/" + team + "/jobs?status=PENDING"), 200).json().get("items");
        assertThat(listed).hasSize(2).allSatisfy(job -> assertThat(job.get("estimatedStart").get("p50").isString())
                .isTrue());
    }

    @Test
    void aReleaseMovesTheEstimateEarlierOnTheJobsEventStreamWithinASecond() throws Exception {
        String team = twoWaitingBehindAHolder();
        Instant before = Instant.parse(awaitEstimate(team, "later").get("p50").asString());
        var lines = new CopyOnWriteArrayList<String>();
        read(team, "later", lines);
        await().atMost(Duration.ofSeconds(10)).until(() -> estimates(lines).size() == 1);

        expect(api.post("/api/v1/teams/" + team + "/jobs/holder/stop", Map.of()), 200);
        awaitStatus(team, "holder", "STOPPED");

        List<JsonNode> sent = await().atMost(Duration.ofSeconds(1)).pollInterval(Duration.ofMillis(10))
                .until(() -> estimates(lines), e -> e.size() > 1);
        Instant after = Instant.parse(sent.get(sent.size() - 1).get("p50").asString());
        assertThat(after).as("without the holder's rest ahead of it").isBefore(before.minus(Duration.ofMinutes(5)));
        assertThat(Instant.parse(describe(team, "later").get("estimatedStart").get("p50").asString())).isEqualTo(after);
        assertThat(describe(team, "next").get("estimatedStart").isNull()).isTrue();
    }

    @Test
    void aReleaseReEstimatesTheJobsItCanMoveAndKeepsTheOthersEstimates() {
        capacity(G5_48, 1);
        String elsewhere = team(Map.of(G5_48, 2));
        submit(elsewhere, hinted("holder-elsewhere", G5_48, 3600));
        awaitStatus(elsewhere, "holder-elsewhere", "RUNNING");
        submit(elsewhere, hinted("waits-elsewhere", G5_48, 1800));
        JsonNode kept = awaitEstimate(elsewhere, "waits-elsewhere");
        String team = twoWaitingBehindAHolder();
        Instant before = Instant.parse(awaitEstimate(team, "later").get("p50").asString());

        StartEstimator.Run run = stopTheHolderAndAwaitTheEstimationThatMovesLater(team, before);

        assertThat(run.full()).as("only what the release could move").isFalse();
        assertThat(run.offerings()).containsExactly(OfferingKey.onDemand("us-east-1", G5));
        assertThat(describe(elsewhere, "waits-elsewhere").get("estimatedStart")).isEqualTo(kept);
    }

    @Test
    void anEstimationStepsAsideWhilePlacementWorkIsInHandForAtMostItsBound() {
        String team = twoWaitingBehindAHolder();
        Instant before = Instant.parse(awaitEstimate(team, "later").get("p50").asString());
        StartEstimator.Run run;
        try (PlacementActivity.Work cycle = placement.begin()) {
            run = stopTheHolderAndAwaitTheEstimationThatMovesLater(team, before);
        }

        assertThat(run.aside()).as("it waited while the work was in hand, as long as it may")
                .isGreaterThanOrEqualTo(StartEstimator.STEP_ASIDE).isLessThan(Duration.ofSeconds(5));
    }

    @Test
    void aFullEstimationCallsBeyondTheForecastOnlyTheJobsSubmittedByItsReading() {
        capacity(G5_48, 1);
        String team = team(Map.of(G5_48, 2));
        submit(team, hinted("holder", G5_48, 3600));
        awaitStatus(team, "holder", "RUNNING");
        String basis = "beyond this test's forecast";
        estimator.stop(); // nothing else writes estimates meanwhile
        try {
            Instant read = Instant.now().truncatedTo(ChronoUnit.MILLIS);
            submit(team, hinted("after-the-reading", G5_48, 1800));
            awaitStatus(team, "after-the-reading", "PENDING");

            estimates.store(new JobEstimates.Estimation(List.of(), null, basis, List.of(), read));
            assertThat(describe(team, "after-the-reading").get("estimatedStart").isNull())
                    .as("submitted while the estimation forecast: it may be first in line").isTrue();

            estimates.store(new JobEstimates.Estimation(List.of(), null, basis, List.of(), Instant.now()));
            assertThat(describe(team, "after-the-reading").get("estimatedStart").get("basis").asString())
                    .isEqualTo(basis);
        } finally {
            estimator.start();
        }
    }

    @Test
    void aJobBehindItsTeamsWindowIsBeyondTheForecastUntilTheQueueMovesUpToIt() {
        capacity(G5, 1);
        String team = team(Map.of(G5, 30));
        submit(team, hinted("holder", 3600));
        awaitStatus(team, "holder", "RUNNING");
        for (int i = 0; i <= WINDOW; i++) {
            submit(team, hinted("queued-" + i, 1800)); // one by one: a batch's jobs share their submission time
        }

        JsonNode beyond = awaitEstimate(team, "queued-" + WINDOW);

        assertThat(beyond.get("basis").asString()).isEqualTo("beyond the forecast: at least " + WINDOW
                + " jobs of its team wait before it for each type it lists");
        assertThat(beyond.get("p50").isNull()).isTrue();
        assertThat(awaitEstimate(team, "queued-" + (WINDOW - 1)).get("p50").isString()).isTrue();
        submit(team, hinted("queued-later", 1800));
        Instant at = Instant.parse(awaitEstimate(team, "queued-later").get("estimatedAt").asString());
        assertThat(estimator.recent()).as("one more behind a full window costs no forecast")
                .anyMatch(r -> r.at().truncatedTo(ChronoUnit.MILLIS).equals(at) && r.forecast() == 0);

        expect(api.post("/api/v1/teams/" + team + "/jobs/holder/stop", Map.of()), 200);

        JsonNode inside = await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(20))
                .until(() -> describe(team, "queued-" + WINDOW).get("estimatedStart"), e -> e.get("p50").isString());
        assertThat(inside.get("basis").asString()).startsWith(WINDOW - 1 + " jobs ahead on " + G5);
    }

    @Test
    void estimatesAreWorkedOutOnAPoolOfTheirOwnSoAnExhaustedApplicationPoolDoesNotHoldThemUp() throws Exception {
        String team = twoWaitingBehindAHolder();
        awaitEstimate(team, "later");
        HikariDataSource application = dataSource.unwrap(HikariDataSource.class);
        var held = new java.util.ArrayList<Connection>();
        try {
            while (application.getHikariPoolMXBean().getActiveConnections() < application.getMaximumPoolSize()) {
                held.add(dataSource.getConnection());
            }
            int before = estimator.recent().size();
            StartEstimator.Run last = estimator.recent().get(before - 1);

            estimator.askFull();

            StartEstimator.Run full = await().atMost(Duration.ofSeconds(4)).pollInterval(Duration.ofMillis(20))
                    .until(() -> estimator.recent().get(estimator.recent().size() - 1), r -> r != last && r.full());
            assertThat(full.forecast()).isPositive();
            try (var statement = held.get(0).createStatement();
                 var rs = statement.executeQuery("SELECT count(*) FROM pg_stat_activity"
                         + " WHERE application_name = 'spillover-estimates' AND datname = current_database()")) {
                rs.next();
                assertThat(rs.getInt(1)).as("the estimator's own connections").isBetween(1,
                        StartEstimator.POOL_SIZE);
            }
        } finally {
            for (Connection connection : held) {
                connection.close();
            }
        }
    }

    @Test
    void anEstimatePastTheJobsMaximumPendingTimeSaysSo() {
        capacity(G5, 1);
        String team = team(Map.of(G5, 2));
        submit(team, hinted("holder", 3600));
        awaitStatus(team, "holder", "RUNNING");
        var impatient = hinted("impatient", 600);
        impatient.put("maxPendingTimeInSeconds", 600);
        submit(team, impatient);

        JsonNode estimate = awaitEstimate(team, "impatient");

        assertThat(estimate.get("pastDeadline").asBoolean()).isTrue();
        assertThat(estimate.get("basis").asString()).contains("its maximum pending time runs out first, at ");
        assertThat(Instant.parse(estimate.get("p50").asString()))
                .isAfter(Instant.parse(describe(team, "impatient").get("pendingDeadline").asString()));
    }

    @Test
    void whenTheLatestFirstEstimatesSaidAMinuteAndTheJobsStartedHoursLaterTheIntervalWidensAndTheMedianStays() {
        // forty jobs that ran (on G5, so that no test meets an offering it does not expect)
        capacity(G5, 40);
        String earlier = team(Map.of(G5, 40));
        for (int i = 0; i < 40; i++) {
            submit(earlier, job("ran-" + i, entry(G5, 1)));
        }
        for (int i = 0; i < 40; i++) {
            awaitStatus(earlier, "ran-" + i, "RUNNING");
            expect(api.post("/api/v1/teams/" + earlier + "/jobs/ran-" + i + "/stop", Map.of()), 200);
        }
        for (int i = 0; i < 40; i++) {
            awaitStatus(earlier, "ran-" + i, "STOPPED");
        }
        // the latest first estimates are theirs: each said a minute, and its job started two hours after it
        jdbc.sql("DELETE FROM first_estimates").update();
        jdbc.sql("""
                INSERT INTO first_estimates (job_id, made_at, p10_s, p50_s, p90_s)
                SELECT id, started_at - interval '2 hours', 50, 60, 70 FROM jobs WHERE team = :team""")
                .param("team", earlier).update();
        String team = twoWaitingBehindAHolder();

        JsonNode later = awaitEstimate(team, "later");

        Instant p10 = Instant.parse(later.get("p10").asString());
        Instant p50 = Instant.parse(later.get("p50").asString());
        Instant p90 = Instant.parse(later.get("p90").asString());
        assertThat(p50).as("the median stays the forecast's: after the holder's rest and next's run")
                .isAfter(Instant.now().plus(Duration.ofMinutes(30))).isBefore(Instant.now().plus(Duration.ofHours(4)));
        assertThat(Duration.between(p50, p90)).as("past estimates were late by a factor of 60")
                .isGreaterThan(Duration.ofHours(10));
        assertThat(p10).isBeforeOrEqualTo(p50);
    }

    @Test
    void anExpectedRunTimeThatIsNotPositiveIsRefusedByName() {
        String team = team(Map.of(G5, 1));
        var body = hinted("bad-hint", 0);

        var response = expect(api.post("/api/v1/teams/" + team + "/jobs", body), 400);

        assertThat(response.text()).contains("expectedRuntimeSeconds");
    }

    /**
     * A team on one G5: "holder" runs (an hour by its hint), "next" and "later" wait behind it (half an hour each).
     */
    /**
     * Stops the team's holder, awaits the estimate of its job "later" at least 5 min earlier than {@code before}, and
     * returns the estimation that wrote it.
     */
    private StartEstimator.Run stopTheHolderAndAwaitTheEstimationThatMovesLater(String team, Instant before) {
        expect(api.post("/api/v1/teams/" + team + "/jobs/holder/stop", Map.of()), 200);
        JsonNode moved = await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(20))
                .until(() -> describe(team, "later").get("estimatedStart"),
                        e -> Instant.parse(e.get("p50").asString()).isBefore(before.minus(Duration.ofMinutes(5))));
        Instant at = Instant.parse(moved.get("estimatedAt").asString());
        return estimator.recent().stream() // the table keeps milliseconds
                .filter(r -> r.at().truncatedTo(ChronoUnit.MILLIS).equals(at)).findFirst().orElseThrow();
    }

    private String twoWaitingBehindAHolder() {
        capacity(G5, 1);
        String team = team(Map.of(G5, 3));
        submit(team, hinted("holder", 3600));
        awaitStatus(team, "holder", "RUNNING");
        submit(team, hinted("next", 1800));
        submit(team, hinted("later", 1800));
        return team;
    }

    /** A job on one G5 that runs an hour and tells the scheduler how long it expects to run. */
    private static Map<String, Object> hinted(String name, int expectedSeconds) {
        return hinted(name, G5, expectedSeconds);
    }

    private static Map<String, Object> hinted(String name, String type, int expectedSeconds) {
        var body = job(name, entry(type, 1));
        body.put("maxRuntimeInSeconds", 7200);
        body.put("expectedRuntimeSeconds", expectedSeconds);
        return body;
    }

    private JsonNode awaitEstimate(String team, String job) {
        return await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
                .until(() -> describe(team, job).get("estimatedStart"), e -> e != null && !e.isNull());
    }

    private static List<JsonNode> estimates(List<String> lines) {
        var found = new java.util.ArrayList<JsonNode>();
        for (int i = 0; i + 1 < lines.size(); i++) {
            if (lines.get(i).equals("event:estimate") && lines.get(i + 1).startsWith("data:")) {
                found.add(io.spillover.support.Api.JSON.readTree(lines.get(i + 1).substring("data:".length())));
            }
        }
        return found;
    }

    private void read(String team, String job, List<String> lines) {
        var request = HttpRequest.newBuilder(URI.create("http://localhost:" + port() + "/api/v1/teams/" + team
                        + "/jobs/" + job + "/events"))
                .header("Authorization", "Bearer " + ADMIN_TOKEN).header("Accept", "text/event-stream").build();
        Thread reader = new Thread(() -> {
            try {
                HttpResponse<java.io.InputStream> response = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
                try (var in = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
                    String line;
                    while ((line = in.readLine()) != null) {
                        lines.add(line);
                    }
                }
            } catch (Exception e) {
                lines.add("failed: " + e);
            }
        });
        reader.setDaemon(true);
        reader.start();
    }
}
