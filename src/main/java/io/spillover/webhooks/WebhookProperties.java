package io.spillover.webhooks;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

/**
 * @param allowedHosts     hosts (names or addresses, as the URL writes them) a hook may reach over plain http and
 *                         at private, loopback or link-local addresses; every other hook must be https to a public
 *                         address
 * @param allowPublicHosts whether hooks may point at hosts that {@code allowedHosts} does not list (true); false
 *                         keeps hooks to the listed hosts only
 * @param secretKey        the key (32 bytes, base64) that encrypts hooks' signing secrets in the database; without
 *                         one the embedded database's demo makes one in {@code spillover.data-dir}, and an external
 *                         database takes no hooks
 * @param timeout          how long a receiver has to answer a delivery, from connecting to its status line
 * @param concurrency      deliveries in flight per instance; one hook takes at most a quarter of them
 * @param pollInterval     how often an instance looks for deliveries that are due when nothing woke it
 * @param maxBodySize      the largest event sent; a larger job's event leaves out its details and points to them
 * @param retry            when a failed delivery is tried again, and for how long
 */
@ConfigurationProperties("spillover.webhooks")
public record WebhookProperties(List<String> allowedHosts, Boolean allowPublicHosts, String secretKey,
                                Duration timeout, Integer concurrency, Duration pollInterval, DataSize maxBodySize,
                                Retry retry) {

    public WebhookProperties {
        allowedHosts = allowedHosts == null ? List.of()
                : allowedHosts.stream().map(h -> h.trim().toLowerCase(Locale.ROOT)).filter(h -> !h.isEmpty()).toList();
        allowPublicHosts = allowPublicHosts == null || allowPublicHosts;
        secretKey = secretKey == null || secretKey.isBlank() ? null : secretKey.trim();
        timeout = timeout == null ? Duration.ofSeconds(10) : timeout;
        concurrency = concurrency == null ? 16 : concurrency;
        pollInterval = pollInterval == null ? Duration.ofSeconds(2) : pollInterval;
        maxBodySize = maxBodySize == null ? DataSize.ofKilobytes(256) : maxBodySize;
        retry = retry == null ? new Retry(null, null, null) : retry;
        if (concurrency < 1) {
            throw new IllegalArgumentException("spillover.webhooks.concurrency must be 1 or more");
        }
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("spillover.webhooks.timeout must be positive");
        }
    }

    /**
     * @param initialDelay the wait before the second try; each later wait doubles, less a random part (jitter)
     * @param maxDelay     the longest wait between two tries
     * @param giveUpAfter  how long after the event a delivery is tried before it counts as failed
     */
    public record Retry(Duration initialDelay, Duration maxDelay, Duration giveUpAfter) {
        public Retry {
            initialDelay = initialDelay == null ? Duration.ofSeconds(5) : initialDelay;
            maxDelay = maxDelay == null ? Duration.ofHours(1) : maxDelay;
            giveUpAfter = giveUpAfter == null ? Duration.ofHours(24) : giveUpAfter;
        }
    }

    /** How long a claimed delivery is its instance's: twice the time a receiver has, so a live sender never loses it. */
    Duration lease() {
        return timeout.multipliedBy(2);
    }

    /** The deliveries one hook may have in flight on one instance's share of the dispatcher. */
    int perHook() {
        return Math.max(1, concurrency / 4);
    }
}
