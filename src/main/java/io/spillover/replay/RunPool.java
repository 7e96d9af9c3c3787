package io.spillover.replay;

import java.time.Duration;
import java.util.Arrays;
import java.util.Collection;
import java.util.Objects;

/**
 * Ended runs that a forecast draws a run time from when nothing closer is known of a job: the latest runs of its
 * profile in its team, of its team, or of the platform, with what they are in words ("team vision's history"), for
 * an estimate's basis. Immutable; many jobs share one.
 */
public final class RunPool {

    public static final RunPool NONE = new RunPool(java.util.List.of(), "no run has ended yet");

    private final long[] seconds;
    private final String basis;

    /** @param basis what the runs are, as it follows "by" in a sentence: "team vision's history" */
    public RunPool(Collection<Duration> runs, String basis) {
        this.seconds = runs.stream().mapToLong(d -> Math.max(1, d.toSeconds())).sorted().toArray();
        this.basis = Objects.requireNonNull(basis, "basis");
    }

    public boolean isEmpty() {
        return seconds.length == 0;
    }

    public int size() {
        return seconds.length;
    }

    public String basis() {
        return basis;
    }

    /** The lower median, as PostgreSQL's {@code percentile_disc(0.5)}; 0 for none. */
    public long median() {
        return seconds.length == 0 ? 0 : seconds[(seconds.length - 1) / 2];
    }

    /** The runs, shortest first; the caller must not change them. */
    long[] sorted() {
        return seconds;
    }

    @Override
    public String toString() {
        return basis + " " + Arrays.toString(seconds);
    }
}
