package io.spillover.estimates;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Where and how much the pending jobs' starts are estimated (docs/estimates.md).
 *
 * @param runsOn       which instance estimates: {@code scheduler} (the one that schedules), {@code standby} (one that
 *                     does not: one at a time, by a lock of its own; with a single instance, none), or {@code none}
 * @param maxShare     the most of one core the estimator keeps busy on average (its estimations' wall time, the
 *                     database's work for them included, the time they step aside for a scheduling cycle not), over
 *                     (0, 1]
 * @param fullInterval how often every offering's queue is estimated anyway (the safety net for what no change
 *                     announced, and for time passing), within {@code maxShare}
 * @param window       how many pending jobs of each team on each type the forecast follows, in queue order; a job
 *                     behind that many of its team on every type it lists is beyond the forecast
 */
@ConfigurationProperties("spillover.estimates")
public record EstimatesProperties(RunsOn runsOn, Double maxShare, Duration fullInterval, Integer window) {

    /** Which instance estimates. */
    public enum RunsOn { SCHEDULER, STANDBY, NONE }

    public EstimatesProperties {
        runsOn = runsOn == null ? RunsOn.SCHEDULER : runsOn;
        maxShare = maxShare == null ? 0.2 : maxShare;
        fullInterval = fullInterval == null ? Duration.ofSeconds(60) : fullInterval;
        window = window == null ? 500 : window;
        if (!(maxShare > 0 && maxShare <= 1)) {
            throw new IllegalArgumentException("spillover.estimates.max-share must be over 0 and at most 1, not "
                    + maxShare);
        }
        if (fullInterval.isNegative() || fullInterval.isZero()) {
            throw new IllegalArgumentException("spillover.estimates.full-interval must be positive, not "
                    + fullInterval);
        }
        if (window < 1) {
            throw new IllegalArgumentException("spillover.estimates.window must be at least 1, not " + window);
        }
    }
}
