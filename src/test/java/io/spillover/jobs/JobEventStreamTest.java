package io.spillover.jobs;

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
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** A job's event stream: its transitions as they commit, its evaluations while it waits, and its end. */
class JobEventStreamTest extends ApiTest {

    static final String M5 = "ml.m5.xlarge";

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void aStreamTellsEachTransitionAsItHappensAndEndsWithTheJob() throws Exception {
        capacity(M5, 0);
        String team = team(Map.of(M5, 1));
        submit(team, job("watched", entry(M5, 1)));
        var lines = new CopyOnWriteArrayList<String>();
        Thread reader = read(team, "watched", null, lines);
        await().atMost(Duration.ofSeconds(10)).until(() -> lines.contains("event:evaluation"));

        capacity(M5, 1);
        awaitStatus(team, "watched", "RUNNING");
        expect(api.post("/api/v1/teams/" + team + "/jobs/watched/stop", Map.of()), 200);
        reader.join(10_000);

        assertThat(reader.isAlive()).as("the stream closed after the end").isFalse();
        List<String> events = lines.stream().filter(l -> l.startsWith("event:")).toList();
        assertThat(events).containsSubsequence("event:transition", "event:evaluation", "event:transition",
                "event:transition", "event:transition", "event:transition", "event:end");
        assertThat(lines.stream().filter(l -> l.startsWith("data:") && !l.contains("\"transitions\"")
                && l.contains("\"to\":")).map(l ->
                l.replaceAll(".*\"to\":\"([A-Z]+)\".*", "$1")).toList())
                .containsExactly("PENDING", "STARTING", "RUNNING", "STOPPING", "STOPPED");
        assertThat(lines.get(lines.size() - 2)).contains("\"status\":\"STOPPED\"");
    }

    @Test
    void aStreamOpenedWithLastEventIdSendsOnlyWhatCameAfter() throws Exception {
        capacity(M5, 0);
        String team = team(Map.of(M5, 1));
        submit(team, job("resumed", entry(M5, 1)));
        expect(api.post("/api/v1/teams/" + team + "/jobs/resumed/stop", Map.of()), 200);
        var all = new CopyOnWriteArrayList<String>();
        read(team, "resumed", null, all).join(10_000);
        String firstId = all.stream().filter(l -> l.startsWith("id:")).findFirst().orElseThrow().substring(3);

        var rest = new CopyOnWriteArrayList<String>();
        read(team, "resumed", firstId, rest).join(10_000);

        assertThat(rest.stream().filter(l -> l.startsWith("event:")).toList())
                .containsExactly("event:transition", "event:end");
        assertThat(rest).anySatisfy(l -> assertThat(l).contains("\"to\":\"STOPPED\""));
        assertThat(api.get("/api/v1/teams/" + team + "/jobs/resumed/events").status()).isEqualTo(200);
    }

    @Test
    void aStreamOfAnotherTeamsOrAnUnknownJobIsAProblem() throws Exception {
        String team = team(Map.of(M5, 1));
        HttpResponse<String> unknown = http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port()
                        + "/api/v1/teams/" + team + "/jobs/nope/events"))
                .header("Authorization", "Bearer " + ADMIN_TOKEN)
                .header("Accept", "text/event-stream, application/problem+json").build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(unknown.headers().firstValue("Content-Type").orElse("")).startsWith("application/problem+json");
        assertThat(api.get("/api/v1/teams/" + team + "/jobs/nope/events").status()).isEqualTo(404);

        submit(team, job("known", entry(M5, 1)));
        HttpResponse<String> badId = http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port()
                        + "/api/v1/teams/" + team + "/jobs/known/events"))
                .header("Authorization", "Bearer " + ADMIN_TOKEN).header("Last-Event-ID", "not-a-number")
                .header("Accept", "text/event-stream, application/problem+json").build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(badId.statusCode()).isEqualTo(400);
        assertThat(badId.body()).contains("Last-Event-ID");
    }

    private Thread read(String team, String job, String lastEventId, List<String> lines) {
        var request = HttpRequest.newBuilder(URI.create("http://localhost:" + port() + "/api/v1/teams/" + team
                        + "/jobs/" + job + "/events"))
                .header("Authorization", "Bearer " + ADMIN_TOKEN).header("Accept", "text/event-stream");
        if (lastEventId != null) {
            request.header("Last-Event-ID", lastEventId);
        }
        Thread reader = new Thread(() -> {
            try {
                HttpResponse<java.io.InputStream> response = http.send(request.build(),
                        HttpResponse.BodyHandlers.ofInputStream());
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
        reader.start();
        return reader;
    }
}
