package io.spillover.scheduling;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * @param sweepInterval       how often every pending job is evaluated anyway, to heal a missed event
 * @param unavailableTtl      how long an offering stays marked after a provider refused a launch on it
 * @param leaderRetryInterval how often a standby instance tries to become the scheduler
 */
@ConfigurationProperties("spillover.scheduling")
public record SchedulingProperties(Duration sweepInterval, Duration unavailableTtl, Duration leaderRetryInterval) {

    public SchedulingProperties {
        sweepInterval = sweepInterval == null ? Duration.ofSeconds(60) : sweepInterval;
        unavailableTtl = unavailableTtl == null ? Duration.ofMinutes(3) : unavailableTtl;
        leaderRetryInterval = leaderRetryInterval == null ? Duration.ofSeconds(2) : leaderRetryInterval;
    }
}
