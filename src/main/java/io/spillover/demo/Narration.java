package io.spillover.demo;

import io.spillover.jobs.EstimatedStart;
import io.spillover.jobs.EvaluationView;
import io.spillover.jobs.JobView;
import io.spillover.jobs.StatusReason;
import io.spillover.placement.EntryVerdict;
import java.time.Duration;
import java.time.Instant;
import java.util.stream.Collectors;

/** What the demo says about its jobs, in words, from what the service says of them. */
final class Narration {

    private Narration() {
    }

    /** A job was placed at {@code placedAt}: on its first choice, or on a later entry with why the first did not fit. */
    static String placed(JobView job, EvaluationView selecting, Instant placedAt) {
        JobView.Selection on = job.selection();
        String where = on.instanceCount() + " × " + on.instanceType() + " (" + on.source() + ")";
        Duration waited = Duration.between(job.createdAt(), placedAt);
        String after = waited.toSeconds() >= 2 ? ", after waiting " + seconds(waited) : "";
        if (on.index() == 0) {
            return job.name() + " got its first choice, " + where + after + ".";
        }
        String why = selecting == null || selecting.entries().isEmpty() ? ""
                : ": entry 0 did not fit, " + selecting.entries().get(0).reason();
        return job.name() + " fell back to entry " + on.index() + ", " + where + after + why + ".";
    }

    /** A job waits: why each entry does not fit now. */
    static String waits(JobView job, EvaluationView latest) {
        return job.name() + " waits: " + latest.entries().stream()
                .map(e -> "entry " + e.index() + " " + shortReason(e)).collect(Collectors.joining("; ")) + ".";
    }

    private static String shortReason(EntryVerdict entry) {
        return entry.fits() ? "would fit (" + entry.reason() + ")" : entry.reason();
    }

    /** A waiting job's first estimated start, in the run's own time ({@code +1:05}), against its deadline. */
    static String estimated(JobView job, EstimatedStart estimate, Instant started) {
        String likely = "likely start " + DemoRun.offset(Duration.between(started, estimate.p50()));
        String low = estimate.p10() == null ? null : DemoRun.offset(Duration.between(started, estimate.p10()));
        String high = estimate.p90() == null ? null : DemoRun.offset(Duration.between(started, estimate.p90()));
        String range = low == null || high == null ? "" : low.equals(high) ? " (p10–p90 " + low + ")"
                : " (p10–p90 " + low + " to " + high + ")";
        String entry = estimate.entry() == null ? "" : " on entry " + estimate.entry();
        String deadline = !estimate.pastDeadline() || job.pendingDeadline() == null ? ""
                : ", past its deadline at " + DemoRun.offset(Duration.between(started, job.pendingDeadline()))
                        + ": unless capacity frees sooner it gives up then";
        return job.name() + ": " + likely + range + entry + deadline + ". " + capitalized(estimate.basis()) + ".";
    }

    /** A job ended: how. */
    static String ended(JobView job) {
        return switch (job.status()) {
            case COMPLETED -> job.name() + " completed.";
            case FAILED -> job.name() + " failed: " + job.statusMessage();
            case STOPPED -> job.statusReason() == StatusReason.MAX_PENDING_TIME_EXCEEDED
                    ? job.name() + " gave up at its deadline after waiting " + seconds(Duration.between(job.createdAt(),
                            job.endedAt() == null ? job.createdAt() : job.endedAt())) + " (MAX_PENDING_TIME_EXCEEDED):"
                            + " nothing it asked for came free in time."
                    : job.name() + " was stopped (" + job.statusReason() + ").";
            default -> job.name() + " is " + job.status() + ".";
        };
    }

    private static String seconds(Duration duration) {
        long s = Math.round(duration.toMillis() / 1000.0);
        return s < 120 ? s + " s" : (s / 60) + " min " + (s % 60) + " s";
    }

    private static String capitalized(String text) {
        if (text == null || text.isEmpty()) {
            return "";
        }
        return Character.toUpperCase(text.charAt(0)) + text.substring(1);
    }
}
