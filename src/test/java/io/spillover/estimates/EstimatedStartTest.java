package io.spillover.estimates;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.spillover.support.ApiTest;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;

/**
 * Pending jobs' estimated starts through the API: worked out by the scheduling instance after the cycles that change
 * the queue, shown while a job waits, and sent on its event stream when they move.
 */
class EstimatedStartTest extends ApiTest {

    static final String G5 = "ml.g5.12xlarge";

    private final HttpClient http = HttpClient.newHttpClient();

    @Autowired
    private JdbcClient jdbc;

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
        var body = job(name, entry(G5, 1));
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
