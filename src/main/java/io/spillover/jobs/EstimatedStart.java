package io.spillover.jobs;

import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * When a pending job will most likely start, and on which entry, as the scheduling instance last estimated it by
 * running the queue forward from the platform as it stood (see {@code io.spillover.estimates}).
 *
 * @param p10          one future in ten starts it this early or earlier; null when it does not start within the
 *                     forecast's horizon in that many futures
 * @param p50          the median start; null when it starts in no future within the horizon, or lies beyond the
 *                     forecast (the basis says which)
 * @param p90          one future in ten starts it this late or later
 * @param entry        the entry of its list it starts on most often (0 is the first), null when none
 * @param basis        why, in one line: "3 jobs ahead on ml.p4d.24xlarge; 2 running there end in ~40 min by team
 *                     vision's history"
 * @param pastDeadline its median start is after its maximum pending time runs out: it would be stopped first
 * @param estimatedAt  when these figures were worked out
 */
@Schema(description = "When a pending job will most likely start: p10, p50 and p90 of its start over sampled futures,"
        + " the entry it starts on most often, and why. Null while the job is not PENDING, and for the moment between"
        + " its submission and the first estimate that includes it.")
public record EstimatedStart(Instant p10, Instant p50, Instant p90, Integer entry, String basis, boolean pastDeadline,
                             Instant estimatedAt) {

    /** How far a figure may drift between estimates and still count as the same. */
    public static final Duration UNMOVED = Duration.ofSeconds(10);

    /** Whether the figures differ from another estimate's enough to tell the job's watchers. */
    public boolean movedFrom(EstimatedStart other) {
        return other == null || !Objects.equals(entry, other.entry) || pastDeadline != other.pastDeadline
                || !basis.equals(other.basis) || moved(p10, other.p10) || moved(p50, other.p50) || moved(p90, other.p90);
    }

    /** Seconds of drift as time passes are not news; a null that appears or goes is. */
    private static boolean moved(Instant a, Instant b) {
        if (a == null || b == null) {
            return a != b;
        }
        return Math.abs(a.toEpochMilli() - b.toEpochMilli()) >= UNMOVED.toMillis();
    }
}
