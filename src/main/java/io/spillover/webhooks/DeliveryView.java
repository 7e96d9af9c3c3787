package io.spillover.webhooks;

import java.time.Instant;
import java.util.List;

/**
 * One event's delivery to a hook, as the API and console show it.
 *
 * @param webhookId     the {@code webhook-id} header it is sent with, the same on every attempt and redelivery
 *                      (the CloudEvent's id)
 * @param type          what it reports ({@code job.started}, or {@code io.spillover.webhook.ping})
 * @param state         {@code PENDING} (to be tried, at {@code nextAttemptAt}), {@code DELIVERED} or {@code FAILED}
 * @param redeliveryOf  the delivery this one sends again by hand, if it is a redelivery
 * @param attempts      every try, oldest first: the answer's status (none when nothing answered), how long it took,
 *                      what went wrong
 */
public record DeliveryView(long id, String webhookId, String type, String job, String state, Instant createdAt,
                           Instant nextAttemptAt, Integer lastStatus, String lastError, Instant doneAt,
                           Long redeliveryOf, List<Attempt> attempts) {

    public record Attempt(Instant at, Integer status, int latencyMillis, String error) {
    }

    DeliveryView withAttempts(List<Attempt> tries) {
        return new DeliveryView(id, webhookId, type, job, state, createdAt, nextAttemptAt, lastStatus, lastError,
                doneAt, redeliveryOf, tries);
    }
}
