package io.spillover.webhooks;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;
import java.util.List;

/**
 * A hook as listed; {@code secret} (written {@code whsec_<base64>}) only in the answer that created it, never again.
 *
 * @param enabled        false once a receiver answered 410 Gone ({@code disabledReason} says when); saving the
 *                       hook again enables it
 */
public record WebhookView(String name, String team, String url, List<String> events, String jobNameGlob,
                          boolean enabled, String disabledReason, Instant createdAt, String createdBy,
                          Instant updatedAt, @JsonInclude(JsonInclude.Include.NON_NULL) String secret) {

    WebhookView withSecret(String shown) {
        return new WebhookView(name, team, url, events, jobNameGlob, enabled, disabledReason, createdAt, createdBy,
                updatedAt, shown);
    }
}
