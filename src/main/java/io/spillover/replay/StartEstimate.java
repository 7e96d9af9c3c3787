package io.spillover.replay;

import java.time.Instant;

/**
 * When a pending job will most likely start, as an interval over a forecast's samples, and on which entry.
 *
 * @param p10          a start this early or earlier in one sample in ten; null when it did not start within the
 *                     forecast's horizon in that many samples
 * @param p50          the median start
 * @param p90          a start this late or later in one sample in ten
 * @param entry        the entry it started on most often; null when it started in no sample
 * @param basis        why, in one line: "3 jobs ahead on ml.p4d.24xlarge; 2 running there end in ~40 min by team
 *                     vision's history"
 * @param pastDeadline its median start is after its maximum pending time runs out: it would be stopped first
 */
public record StartEstimate(Instant p10, Instant p50, Instant p90, Integer entry, String basis,
                            boolean pastDeadline) {
}
