package io.spillover.jobs;

import io.spillover.placement.JobTimeLimit;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Limits on what a job may ask for (SPEC §3.2.3, §3.4.3).
 *
 * @param defaultMaxPendingTime how long a job waits when it does not say
 * @param minPendingTime        the least {@code maxPendingTimeInSeconds} accepted
 * @param maxPendingTime        the most {@code maxPendingTimeInSeconds} accepted (default {@link JobTimeLimit#MAX})
 * @param lostAttemptRetries    how often a job whose attempt was lost with what ran it is placed again before it
 *                              fails (as Slurm requeues a job whose node died)
 */
@ConfigurationProperties("spillover.jobs")
record JobLimits(Duration defaultMaxPendingTime, Duration minPendingTime, Duration maxPendingTime,
                 Integer lostAttemptRetries) {

    JobLimits {
        if (defaultMaxPendingTime == null) {
            defaultMaxPendingTime = Duration.ofHours(24);
        }
        if (minPendingTime == null) {
            minPendingTime = Duration.ofSeconds(1);
        }
        if (maxPendingTime == null) {
            maxPendingTime = JobTimeLimit.MAX;
        }
        if (lostAttemptRetries == null) {
            lostAttemptRetries = 3;
        }
        if (lostAttemptRetries < 0) {
            throw new IllegalArgumentException("spillover.jobs.lost-attempt-retries must be 0 or more");
        }
        if (minPendingTime.toSeconds() < 1 || maxPendingTime.compareTo(minPendingTime) < 0) {
            throw new IllegalArgumentException("spillover.jobs: need 1s <= min-pending-time <= max-pending-time");
        }
    }
}
