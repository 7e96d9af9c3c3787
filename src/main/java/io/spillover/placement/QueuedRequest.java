package io.spillover.placement;

import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.Objects;
import java.util.UUID;

/**
 * A pending job in the queue: its request, rank and arrival. Queue order (SPEC §3.4.2) is priority, higher
 * first, then submission time, then id.
 *
 * @param fallbackAfter the job's own patience for its earlier entries (see {@link QueuePolicy#fallbackAfter}),
 *                      or null for the platform's
 * @param expectedRuntime how long the job is expected to run, from what is known before it runs (its own hint,
 *                        its maximum run time, its team's history), or null when nothing is known
 * @param gaveWay       whether its last attempt was stopped for a shorter job of its own team
 *                      ({@link SharingPolicy#shorterFirst}): it resumes before the team's other jobs of its priority
 * @param <I> how the caller identifies jobs
 */
public record QueuedRequest<I extends Comparable<I>>(I id, PlacementRequest request, int priority,
                                                     Instant submittedAt, Duration fallbackAfter,
                                                     Duration expectedRuntime, boolean gaveWay) {

    public QueuedRequest {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(submittedAt, "submittedAt");
        if (fallbackAfter != null && fallbackAfter.isNegative()) {
            throw new IllegalArgumentException("fallbackAfter cannot be negative");
        }
        if (expectedRuntime != null && (expectedRuntime.isNegative() || expectedRuntime.isZero())) {
            throw new IllegalArgumentException("expectedRuntime must be positive");
        }
    }

    public QueuedRequest(I id, PlacementRequest request, int priority, Instant submittedAt, Duration fallbackAfter,
                         Duration expectedRuntime) {
        this(id, request, priority, submittedAt, fallbackAfter, expectedRuntime, false);
    }

    public QueuedRequest(I id, PlacementRequest request, int priority, Instant submittedAt) {
        this(id, request, priority, submittedAt, null, null);
    }

    /** The same job asking with another request (its list, maximum run time or preemptibility changed). */
    public QueuedRequest<I> withRequest(PlacementRequest other) {
        return new QueuedRequest<>(id, other, priority, submittedAt, fallbackAfter, expectedRuntime, gaveWay);
    }

    /** The same job expected to run this long (null: nothing is known). */
    public QueuedRequest<I> withExpectedRuntime(Duration expected) {
        return new QueuedRequest<>(id, request, priority, submittedAt, fallbackAfter, expected, gaveWay);
    }

    /** The same job, marked as having given way to a teammate or not. */
    public QueuedRequest<I> withGaveWay(boolean value) {
        return new QueuedRequest<>(id, request, priority, submittedAt, fallbackAfter, expectedRuntime, value);
    }

    /**
     * The order in which pending jobs are served, the one definition of it: priority, higher first, then
     * submission time, then id. Ids compare as PostgreSQL compares them: UUIDs as unsigned bytes (Java's own
     * {@code UUID.compareTo} compares signed halves), anything else by its natural order. The queue's SQL
     * ({@code ORDER BY priority DESC, created_at, id}) agrees, as a test proves.
     */
    public static <I extends Comparable<I>> Comparator<QueuedRequest<I>> queueOrder() {
        return Comparator.<QueuedRequest<I>>comparingInt(QueuedRequest::priority).reversed()
                .thenComparing(QueuedRequest::submittedAt)
                .thenComparing(QueuedRequest::id, QueuedRequest::compareIds);
    }

    private static <I extends Comparable<I>> int compareIds(I a, I b) {
        if (a instanceof UUID x && b instanceof UUID y) {
            int high = Long.compareUnsigned(x.getMostSignificantBits(), y.getMostSignificantBits());
            return high != 0 ? high : Long.compareUnsigned(x.getLeastSignificantBits(), y.getLeastSignificantBits());
        }
        return a.compareTo(b);
    }
}
