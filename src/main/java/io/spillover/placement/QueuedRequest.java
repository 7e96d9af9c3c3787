package io.spillover.placement;

import java.time.Instant;
import java.util.Comparator;
import java.util.Objects;

/**
 * A pending job in the queue: its request, rank and arrival. Queue order (SPEC §3.4.2) is priority, higher
 * first, then submission time, then id.
 *
 * @param <I> how the caller identifies jobs
 */
public record QueuedRequest<I extends Comparable<I>>(I id, PlacementRequest request, int priority,
                                                     Instant submittedAt) {

    public QueuedRequest {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(submittedAt, "submittedAt");
    }

    /** The order in which pending jobs are served. */
    public static <I extends Comparable<I>> Comparator<QueuedRequest<I>> queueOrder() {
        return Comparator.<QueuedRequest<I>>comparingInt(QueuedRequest::priority).reversed()
                .thenComparing(QueuedRequest::submittedAt)
                .thenComparing(QueuedRequest::id);
    }
}
