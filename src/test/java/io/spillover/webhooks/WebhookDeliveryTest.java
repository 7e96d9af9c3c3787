package io.spillover.webhooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.spillover.jobs.JobStatus;
import io.spillover.jobs.JobTransitioned;
import io.spillover.jobs.JobView;
import io.spillover.jobs.StatusReason;
import io.spillover.jobs.TransitionView;
import io.spillover.support.ApiTest;
import io.spillover.support.WebhookReceiver;
import io.spillover.support.WebhookReceiver.Answer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.JsonNode;

/**
 * Webhooks end to end: a receiver on this machine checks every delivery's signature with its own implementation
 * of the Standard Webhooks check, and sees exactly the events its hook subscribed to, in order per job, as
 * CloudEvents; failed deliveries are tried again with the same {@code webhook-id}; a 410 disables the hook.
 */
class WebhookDeliveryTest extends ApiTest {

    static final String P5 = "ml.p5.48xlarge";
    static final String P4D = "ml.p4d.24xlarge";
    static final String M5 = "ml.m5.xlarge";
    static final String WEST = "us-west-2";

    @Autowired
    JdbcClient jdbc;
    @Autowired
    TransactionTemplate transactions;
    @Autowired
    ApplicationEventPublisher events;

    private final WebhookReceiver receiver = new WebhookReceiver();

    @AfterEach
    void closeReceiver() {
        receiver.close();
    }

    @Test
    void aHookGetsExactlyTheEventsItSubscribedToInOrderPerJobSignedAndAsCloudEvents() {
        // in us-west-2, where no other test places jobs: nothing of theirs can hold or wait for these offerings
        capacity(WEST, P5, 1, false);
        capacity(WEST, P4D, 1, false);
        String team = team(Map.of(P5, 2, P4D, 2));
        String hooks = "/api/v1/teams/" + team + "/webhooks/";
        JsonNode hook = expect(api.put(hooks + "ci", Map.of("url", receiver.url("/ci"), "events",
                List.of("job.started", "job.fell-back", "job.completed", "job.pending-timeout"),
                "jobNameGlob", "run-*")), 201).json();
        receiver.secret(hook.get("secret").asString());

        // first choice free: started, then completed
        submit(team, withRuntime(job("run-first", west(P5, 1)), 1));
        // first choice full: started on entry 1, fell back, then completed
        submit(team, withRuntime(job("run-fallback", west(P5, 1), west(P4D, 1)), 1));
        // nothing fits (the p5 has one instance): its pending time runs out
        var waiting = job("run-timeout", west(P5, 2));
        waiting.put("maxPendingTimeInSeconds", 1);
        submit(team, waiting);
        // stopped: not subscribed; another name: not matched
        submit(team, job("run-stopped", west(P5, 2)));
        expect(api.post("/api/v1/teams/" + team + "/jobs/run-stopped/stop", Map.of()), 200);
        submit(team, withRuntime(job("other-name", west(P4D, 1)), 1));

        Map<String, List<String>> expected = Map.of(
                "run-first", List.of("io.spillover.job.started", "io.spillover.job.completed"),
                "run-fallback", List.of("io.spillover.job.started", "io.spillover.job.fell-back",
                        "io.spillover.job.completed"),
                "run-timeout", List.of("io.spillover.job.pending-timeout"));
        try {
            await().atMost(Duration.ofSeconds(60)).until(() -> byJob(receiver.firstReceipts()).equals(expected));
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            throw new AssertionError("received " + byJob(receiver.firstReceipts()) + "; deliveries "
                    + api.get(hooks + "ci/deliveries?size=100").text() + "; jobs "
                    + api.get("/api/v1/teams/" + team + "/jobs").text(), e);
        }
        awaitStatus(team, "other-name", "COMPLETED");
        awaitStatus(team, "run-stopped", "STOPPED");

        assertThat(byJob(receiver.firstReceipts())).isEqualTo(expected);
        assertThat(receiver.received()).allSatisfy(r -> {
            assertThat(r.verified()).as("signature of " + r.webhookId()).isTrue();
            assertThat(r.contentType()).startsWith("application/cloudevents+json");
            JsonNode event = r.event();
            assertThat(event.get("specversion").asString()).isEqualTo("1.0");
            assertThat(event.get("id").asString()).isEqualTo(r.webhookId());
            assertThat(event.get("source").asString()).isEqualTo("/api/v1/teams/" + team);
            assertThat(event.get("datacontenttype").asString()).isEqualTo("application/json");
            assertThat(event.get("data").get("name").asString()).isEqualTo(event.get("subject").asString());
            assertThat(Instant.parse(event.get("time").asString())).isBefore(Instant.now());
        });
        JsonNode fellBack = receiver.received().stream().filter(r -> r.type().endsWith("fell-back")).findFirst()
                .orElseThrow().event();
        assertThat(fellBack.at("/data/selection/index").asInt()).isEqualTo(1);
        assertThat(fellBack.at("/data/status").asString()).isEqualTo("STARTING");
        JsonNode timedOut = receiver.received().stream().filter(r -> r.type().endsWith("pending-timeout")).findFirst()
                .orElseThrow().event();
        assertThat(timedOut.at("/data/statusReason").asString()).isEqualTo("MAX_PENDING_TIME_EXCEEDED");

        JsonNode deliveries = expect(api.get(hooks + "ci/deliveries?size=100"), 200).json();
        assertThat(deliveries.size()).isEqualTo(6);
        deliveries.forEach(d -> {
            assertThat(d.get("state").asString()).isEqualTo("DELIVERED");
            assertThat(d.get("attempts").get(0).get("status").asInt()).isEqualTo(204);
            assertThat(d.get("attempts").get(0).has("latencyMillis")).isTrue();
        });
    }

    @Test
    void theSecretIsShownWhenTheHookIsMadeAndNeverAgain() {
        String team = team(Map.of(M5, 1));
        String path = "/api/v1/teams/" + team + "/webhooks/ci";
        var body = Map.of("url", receiver.url("/"), "events", List.of("job.completed"));
        JsonNode made = expect(api.put(path, body), 201).json();
        assertThat(made.get("secret").asString()).startsWith("whsec_");

        assertThat(expect(api.put(path, body), 200).json().has("secret")).isFalse();
        assertThat(expect(api.get(path), 200).json().has("secret")).isFalse();
        assertThat(expect(api.get("/api/v1/teams/" + team + "/webhooks"), 200).text()).doesNotContain("whsec_");
        byte[] stored = jdbc.sql("SELECT secret FROM webhooks WHERE team = ?").param(team).query(byte[].class).single();
        assertThat(new String(stored, java.nio.charset.StandardCharsets.ISO_8859_1))
                .doesNotContain(made.get("secret").asString().substring(6));
    }

    @Test
    void aFailingReceiverIsTriedAgainWithTheSameWebhookIdUntilItAnswers2xx() {
        var tries = new AtomicInteger();
        receiver.answering(r -> tries.incrementAndGet() <= 2 ? new Answer(500, Duration.ZERO) : Answer.ok());
        String team = team(Map.of(M5, 1));
        receiver.secret(hook(team, "flaky", List.of("job.stopped")));
        submit(team, job("to-stop", entry(M5, 1)));
        expect(api.post("/api/v1/teams/" + team + "/jobs/to-stop/stop", Map.of()), 200);

        await().atMost(Duration.ofSeconds(15)).until(() -> receiver.accepted().size() == 1);
        assertThat(receiver.received()).hasSize(3)
                .allSatisfy(r -> assertThat(r.verified()).isTrue())
                .extracting(WebhookReceiver.Received::webhookId).containsOnly(receiver.received().get(0).webhookId());
        // the receiver has answered; the dispatcher records that after it reads the answer
        JsonNode delivery = await().atMost(Duration.ofSeconds(5)).until(() -> expect(api.get("/api/v1/teams/" + team
                + "/webhooks/flaky/deliveries"), 200).json().get(0), d -> d.get("state").asString().equals("DELIVERED"));
        assertThat(delivery.get("webhookId").asString()).isEqualTo(receiver.received().get(0).webhookId());
        assertThat(delivery.get("attempts").valueStream().map(a -> a.get("status").asInt()).toList())
                .containsExactly(500, 500, 204);
        assertThat(delivery.get("attempts").get(0).get("error").asString()).isEqualTo("answered 500");
    }

    @Test
    void aReceiverThatAnswers410DisablesTheHookUntilItIsSavedAgain() {
        receiver.answering(r -> new Answer(410, Duration.ZERO));
        String team = team(Map.of(M5, 2));
        hook(team, "gone", List.of("job.stopped"));
        String hook = "/api/v1/teams/" + team + "/webhooks/gone";
        submit(team, job("first", entry(M5, 1)));
        expect(api.post("/api/v1/teams/" + team + "/jobs/first/stop", Map.of()), 200);

        await().atMost(Duration.ofSeconds(10)).until(() -> !expect(api.get(hook), 200).json().get("enabled").asBoolean());
        assertThat(expect(api.get(hook), 200).json().get("disabledReason").asString()).contains("410");
        assertThat(expect(api.get(hook + "/deliveries"), 200).json().get(0).get("state").asString()).isEqualTo("FAILED");
        submit(team, job("second", entry(M5, 1)));
        expect(api.post("/api/v1/teams/" + team + "/jobs/second/stop", Map.of()), 200);
        assertThat(expect(api.get(hook + "/deliveries"), 200).json().size()).as("no event for a disabled hook")
                .isEqualTo(1);

        receiver.answering(r -> Answer.ok());
        expect(api.put(hook, Map.of("url", receiver.url("/"), "events", List.of("job.stopped"))), 200);
        assertThat(expect(api.get(hook), 200).json().get("enabled").asBoolean()).isTrue();
    }

    @Test
    void aFailedDeliveryIsSentAgainByHandWithTheSameWebhookId() {
        receiver.answering(r -> new Answer(503, Duration.ZERO));
        String team = team(Map.of(M5, 1));
        receiver.secret(hook(team, "again", List.of("job.stopped")));
        String hook = "/api/v1/teams/" + team + "/webhooks/again";
        expect(api.put(hook, Map.of("url", receiver.url("/"), "events", List.of("job.stopped"))), 200);
        submit(team, job("stopped", entry(M5, 1)));
        expect(api.post("/api/v1/teams/" + team + "/jobs/stopped/stop", Map.of()), 200);
        await().atMost(Duration.ofSeconds(10)).until(() -> receiver.received().size() >= 2);
        long id = expect(api.get(hook + "/deliveries"), 200).json().get(0).get("id").asLong();
        assertThat(api.post(hook + "/deliveries/" + id + ":redeliver", Map.of()).status())
                .as("a delivery still being tried").isEqualTo(409);
        jdbc.sql("UPDATE webhook_deliveries SET state = 'FAILED', done_at = now() WHERE id = ?").param(id).update();
        receiver.answering(r -> Answer.ok());

        JsonNode again = expect(api.post(hook + "/deliveries/" + id + ":redeliver", Map.of()), 202).json();

        assertThat(again.get("redeliveryOf").asLong()).isEqualTo(id);
        await().atMost(Duration.ofSeconds(10)).until(() -> receiver.accepted().size() == 1);
        assertThat(receiver.accepted().get(0).webhookId()).isEqualTo(receiver.received().get(0).webhookId());
        assertThat(receiver.accepted().get(0).verified()).isTrue();
    }

    @Test
    void aPingIsSignedAndDeliveredLikeAnyEvent() {
        String team = team(Map.of(M5, 1));
        receiver.secret(hook(team, "pinged", List.of("job.completed")));

        JsonNode delivery = expect(api.post("/api/v1/teams/" + team + "/webhooks/pinged:test", Map.of()), 202).json();

        assertThat(delivery.get("type").asString()).isEqualTo("io.spillover.webhook.ping");
        await().atMost(Duration.ofSeconds(10)).until(() -> receiver.accepted().size() == 1);
        WebhookReceiver.Received ping = receiver.accepted().get(0);
        assertThat(ping.verified()).isTrue();
        assertThat(ping.webhookId()).isEqualTo(delivery.get("webhookId").asString());
        assertThat(ping.event().at("/data/webhook").asString()).isEqualTo("pinged");
    }

    @Test
    void aDestinationIsCheckedAgainAtDeliveryAndRefusedWhenItNowLeadsToALoopbackAddress() {
        String team = team(Map.of(M5, 1));
        receiver.secret(hook(team, "moved", List.of("job.completed")));
        // as if the name had come to resolve elsewhere since the hook was saved: the stored URL now leads to
        // 127.0.0.2, a loopback address of this machine that no allowed host names
        jdbc.sql("UPDATE webhooks SET url = ? WHERE team = ?").params("http://127.0.0.2:" + receiver.port() + "/moved",
                team).update();

        expect(api.post("/api/v1/teams/" + team + "/webhooks/moved:test", Map.of()), 202);

        JsonNode attempt = await().atMost(Duration.ofSeconds(10)).until(() -> expect(api.get("/api/v1/teams/" + team
                + "/webhooks/moved/deliveries"), 200).json().get(0).get("attempts"), a -> !a.isEmpty()).get(0);
        assertThat(attempt.has("status") && !attempt.get("status").isNull()).as("an answer").isFalse();
        assertThat(attempt.get("error").asString()).startsWith("refused: 127.0.0.2 is a loopback address");
        assertThat(receiver.received()).isEmpty();
    }

    @Test
    void aChangeThatRolledBackSendsNothing() {
        String team = team(Map.of(M5, 1));
        receiver.secret(hook(team, "strict", List.of("job.completed")));
        submit(team, job("committed", entry(M5, 1)));
        JobView job = Api.JSON().convertValue(describe(team, "committed"), JobView.class);

        transactions.executeWithoutResult(tx -> {
            events.publishEvent(completed(job, "rolled-back"));
            tx.setRollbackOnly();
        });
        transactions.executeWithoutResult(tx -> events.publishEvent(completed(job, "committed")));

        await().atMost(Duration.ofSeconds(10)).until(() -> receiver.accepted().size() == 1);
        assertThat(receiver.accepted().get(0).event().at("/data/statusMessage").asString()).isEqualTo("committed");
        assertThat(jdbc.sql("SELECT count(*) FROM webhook_events WHERE team = ?").param(team).query(Integer.class)
                .single()).isEqualTo(1);
    }

    private static JobTransitioned completed(JobView job, String message) {
        JobView ended = new JobView(job.id(), job.team(), job.name(), job.kind(), JobStatus.COMPLETED,
                StatusReason.COMPLETED, message, job.profile(), job.instancePreferences(), job.instanceCount(),
                job.selection(), job.maxPendingTimeInSeconds(), job.maxRuntimeInSeconds(),
                job.expectedRuntimeSeconds(), job.fallbackAfterSeconds(), job.priority(), job.clientToken(),
                job.requires(), job.container(), job.local(), job.sagemaker(), job.attempt(), job.preemptible(),
                job.preemptions(), job.createdAt(),
                job.startedAt(), Instant.now(), null, null, null);
        return new JobTransitioned(Long.MAX_VALUE, new TransitionView(Instant.now(), JobStatus.RUNNING,
                JobStatus.COMPLETED, StatusReason.COMPLETED, message, 1), ended);
    }

    /** Makes a hook on the receiver; its secret. */
    private String hook(String team, String name, List<String> events) {
        return expect(api.put("/api/v1/teams/" + team + "/webhooks/" + name, Map.of("url", receiver.url("/" + name),
                "events", events)), 201).json().get("secret").asString();
    }

    private static Map<String, Object> west(String instanceType, int count) {
        return Map.of("instanceType", instanceType, "instanceCount", count, "region", WEST);
    }

    private static LinkedHashMap<String, Object> withRuntime(Map<String, Object> job, int seconds) {
        var body = new LinkedHashMap<>(job);
        body.put("local", Map.of("runtimeSeconds", seconds));
        return body;
    }

    private static Map<String, List<String>> byJob(List<WebhookReceiver.Received> received) {
        return received.stream().collect(Collectors.groupingBy(WebhookReceiver.Received::subject,
                LinkedHashMap::new, Collectors.mapping(WebhookReceiver.Received::type, Collectors.toList())));
    }

    static final class Api {
        static tools.jackson.databind.json.JsonMapper JSON() {
            return io.spillover.support.Api.JSON;
        }
    }
}
