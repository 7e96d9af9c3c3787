package io.spillover.system;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Limits on what a job may ask for (SPEC §3.2.3, §3.4.3).
 *
 * @param defaultMaxPendingTime how long a job waits when it does not say
 * @param minPendingTime        the least {@code maxPendingTimeInSeconds} accepted
 * @param maxPendingTime        the most {@code maxPendingTimeInSeconds} accepted
 */
@ConfigurationProperties("spillover.jobs")
public record JobLimits(Duration defaultMaxPendingTime, Duration minPendingTime, Duration maxPendingTime) {

    public JobLimits {
        if (defaultMaxPendingTime == null) {
            defaultMaxPendingTime = Duration.ofHours(24);
        }
        if (minPendingTime == null) {
            minPendingTime = Duration.ofSeconds(1);
        }
        if (maxPendingTime == null) {
            maxPendingTime = Duration.ofSeconds(2_419_200);
        }
        if (minPendingTime.toSeconds() < 1 || maxPendingTime.compareTo(minPendingTime) < 0) {
            throw new IllegalArgumentException("spillover.jobs: need 1s <= min-pending-time <= max-pending-time");
        }
    }
}
