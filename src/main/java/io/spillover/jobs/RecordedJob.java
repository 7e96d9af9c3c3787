package io.spillover.jobs;

import io.spillover.catalog.JobKind;
import io.spillover.placement.OfferingKey;
import io.spillover.placement.PreferenceEntry;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * A job as the platform recorded it, for replaying its history: what was asked, when, and where and how long it
 * ran, if it did.
 *
 * @param profile       the profile it was submitted with, null for none
 * @param entries       its preference list as stored
 * @param startedAt     when its last attempt started, null if it never did
 * @param endedAt       when it ended, null while it is live
 * @param ranOn         the offering its last attempt ran on, null if it never started
 * @param ranInstances  how many instances of it, null if it never started
 * @param maxRuntime    its maximum run time, null for none
 * @param fallbackAfter its own patience for its earlier entries, null for the platform's
 */
public record RecordedJob(UUID id, String team, String name, JobKind kind, int priority, String profile,
                          List<PreferenceEntry> entries, JobStatus status, Instant createdAt, Instant startedAt,
                          Instant endedAt, OfferingKey ranOn, Integer ranInstances, Duration maxRuntime,
                          Duration fallbackAfter) {

    public RecordedJob {
        entries = List.copyOf(entries);
    }

    /** Whether it started on the provider: it ended since, or it runs still. */
    public boolean ran() {
        return startedAt != null && ranOn != null && ranInstances != null
                && (endedAt != null && status.ended() || status.onProvider());
    }

    /** Whether it runs still, so its run is known only so far. */
    public boolean running() {
        return ran() && endedAt == null;
    }

    /**
     * How long its last attempt ran, rounded up to the second, at least 1 s; a job running still has run until
     * {@code now} so far. Only for a job that {@link #ran}.
     */
    public long runSeconds(Instant now) {
        if (!ran()) {
            throw new IllegalStateException(name + " has no recorded run");
        }
        long millis = Duration.between(startedAt, endedAt != null ? endedAt : now).toMillis();
        return Math.max(1, (millis + 999) / 1000);
    }
}
