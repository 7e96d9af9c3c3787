package io.spillover.webhooks;

import io.cloudevents.CloudEvent;
import io.cloudevents.core.builder.CloudEventBuilder;
import io.cloudevents.jackson.JsonFormat;
import io.spillover.jobs.JobView;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.UUID;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * The body of a delivery: a CloudEvents 1.0 event in its structured JSON form, built and written by the CNCF
 * SDK. {@code source} is the team's path in the API, {@code subject} the job's name, {@code time} the change's,
 * {@code data} the job as the API describes it then (without its list of transitions), written by the API's own
 * JSON mapper. An event larger than {@code spillover.webhooks.max-body-size} leaves the job's container,
 * provider settings and requirements out and names where to read them ({@code dataref}).
 */
@Component
class CloudEvents {

    static final String CONTENT_TYPE = "application/cloudevents+json; charset=utf-8";
    private static final JsonFormat FORMAT = new JsonFormat();

    private final JsonMapper json;
    private final long maxBody;

    CloudEvents(JsonMapper json, WebhookProperties properties) {
        this.json = json;
        this.maxBody = properties.maxBodySize().toBytes();
    }

    String job(UUID id, EventType type, JobView job, Instant at) {
        String body = job(id, type, job, at, json.writeValueAsBytes(job), false);
        if (body.getBytes(StandardCharsets.UTF_8).length <= maxBody) {
            return body;
        }
        JobView brief = new JobView(job.id(), job.team(), job.name(), job.kind(), job.status(), job.statusReason(),
                job.statusMessage(), job.profile(), job.instancePreferences(), job.instanceCount(), job.selection(),
                job.maxPendingTimeInSeconds(), job.maxRuntimeInSeconds(), job.expectedRuntimeSeconds(),
                job.fallbackAfterSeconds(), job.priority(), job.clientToken(), null, null, null, null, job.attempt(),
                job.preemptible(), job.preemptions(), job.createdAt(), job.startedAt(), job.endedAt(), job.pendingDeadline(), job.estimatedStart(), null);
        return job(id, type, job, at, json.writeValueAsBytes(brief), true);
    }

    String ping(UUID id, String team, String webhook, Instant at) {
        byte[] data = json.writeValueAsBytes(new Ping(team, webhook,
                "a test event from Spillover: this hook's deliveries reach you and verify"));
        CloudEvent event = CloudEventBuilder.v1().withId(id.toString()).withSource(source(team))
                .withType(EventType.PING).withTime(time(at)).withSubject(webhook)
                .withDataContentType("application/json").withData(data).build();
        return new String(FORMAT.serialize(event), StandardCharsets.UTF_8);
    }

    /** The data of a ping. */
    record Ping(String team, String webhook, String message) {
    }

    private static String job(UUID id, EventType type, JobView job, Instant at, byte[] data, boolean brief) {
        CloudEventBuilder builder = CloudEventBuilder.v1().withId(id.toString()).withSource(source(job.team()))
                .withType(type.cloudEventType()).withTime(time(at)).withSubject(job.name())
                .withDataContentType("application/json").withData(data);
        if (brief) {
            builder.withExtension("dataref", URI.create("/api/v1/teams/" + job.team() + "/jobs/" + job.name()));
        }
        return new String(FORMAT.serialize(builder.build()), StandardCharsets.UTF_8);
    }

    private static URI source(String team) {
        return URI.create("/api/v1/teams/" + team);
    }

    private static OffsetDateTime time(Instant at) {
        return OffsetDateTime.ofInstant(at, ZoneOffset.UTC);
    }
}
