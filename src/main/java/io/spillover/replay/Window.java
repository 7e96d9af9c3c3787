package io.spillover.replay;

import java.util.Comparator;
import java.util.List;

/**
 * Which part of a trace to replay: jobs submitted before a time, and at most so many of them (in submission
 * order). Every selected job runs to completion, however long it is; nothing is cut silently.
 *
 * @param submittedBeforeSeconds null for no time limit
 * @param maxJobs                null for no count limit
 */
public record Window(Long submittedBeforeSeconds, Integer maxJobs) {

    public static final Window WHOLE_TRACE = new Window(null, null);

    public static Window firstDays(long days) {
        return new Window(days * 86_400, null);
    }

    /** The selected jobs in submission order (ties by id). */
    public List<TraceJob> select(List<TraceJob> trace) {
        return trace.stream()
                .sorted(Comparator.comparingLong(TraceJob::submitSeconds).thenComparing(TraceJob::id))
                .filter(j -> submittedBeforeSeconds == null || j.submitSeconds() < submittedBeforeSeconds)
                .limit(maxJobs == null ? Long.MAX_VALUE : maxJobs)
                .toList();
    }

    public boolean wholeTrace() {
        return submittedBeforeSeconds == null && maxJobs == null;
    }

    /** In words, for the report: what was left out. */
    public String describe(int selected, int total) {
        if (wholeTrace()) {
            return "the whole trace: all " + total + " jobs";
        }
        var limits = new StringBuilder();
        if (submittedBeforeSeconds != null) {
            limits.append("submitted before t = ").append(submittedBeforeSeconds).append(" s (")
                    .append(submittedBeforeSeconds / 86_400.0).append(" days)");
        }
        if (maxJobs != null) {
            limits.append(limits.isEmpty() ? "" : ", ").append("the first ").append(maxJobs).append(" jobs");
        }
        return "a window of the trace: " + limits + ": " + selected + " of " + total + " jobs; "
                + (total - selected) + " later jobs not replayed (every replayed job runs to its end)";
    }
}
