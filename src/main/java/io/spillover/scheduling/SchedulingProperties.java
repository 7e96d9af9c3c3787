package io.spillover.scheduling;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * @param sweepInterval       how often every pending job is evaluated anyway, to heal a missed event
 * @param unavailableTtl      how long an offering stays marked after a provider refused a launch on it
 * @param leaderRetryInterval how often a standby instance tries to become the scheduler
 * @param lookAhead           how many jobs of a team's line on an offering a cycle reads past the most that the
 *                            offering's free instances could start: the choice the queue policy's rules (precedence,
 *                            shortest first, holds) have beyond queue order
 */
@ConfigurationProperties("spillover.scheduling")
public record SchedulingProperties(Duration sweepInterval, Duration unavailableTtl, Duration leaderRetryInterval,
                                   Integer lookAhead) {

    public SchedulingProperties {
        lookAhead = lookAhead == null ? 100 : lookAhead;
        if (lookAhead < 1) {
            throw new IllegalArgumentException("spillover.scheduling.look-ahead must be at least 1, not " + lookAhead);
        }
        sweepInterval = sweepInterval == null ? Duration.ofSeconds(60) : sweepInterval;
        unavailableTtl = unavailableTtl == null ? Duration.ofMinutes(3) : unavailableTtl;
        leaderRetryInterval = leaderRetryInterval == null ? Duration.ofSeconds(2) : leaderRetryInterval;
    }
}
