package io.spillover.webhooks;

import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;

/**
 * The body of {@code PUT /teams/{team}/webhooks/{webhook}}.
 *
 * @param url         where to send: {@code https} (plain {@code http} only to allowed hosts)
 * @param events      what to send: {@code job.started}, {@code job.completed}, {@code job.failed}, {@code job.stopped},
 *                    {@code job.pending-timeout}, {@code job.fell-back}
 * @param jobNameGlob the jobs it is about, by name: {@code *} any run of characters, {@code ?} one (default {@code *})
 */
public record WebhookDefinition(@Schema(format = "uri", example = "https://ci.example.com/hooks/spillover") String url,
                                @Schema(example = "[\"job.started\", \"job.completed\", \"job.failed\"]")
                                List<String> events,
                                @Schema(example = "nightly-*") String jobNameGlob) {
}
