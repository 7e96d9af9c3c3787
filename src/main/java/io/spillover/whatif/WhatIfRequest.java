package io.spillover.whatif;

import java.time.Instant;
import java.util.List;

/**
 * What a what-if run replays, and the change it compares with the platform as it is.
 *
 * @param input what to replay: the platform's own jobs submitted in a window, or a trace
 * @param edits the change, applied in order to the live configuration's copy
 */
public record WhatIfRequest(Input input, List<Edit> edits) {

    /**
     * Either {@code from} and {@code to} (the platform's history: every job submitted from {@code from} up to, not
     * including, {@code to}) or {@code trace} (a CSV in the replay's trace format, docs/what-if.md).
     *
     * @param traceName what to call the trace in the run's description (its file's name), null for "uploaded trace"
     */
    public record Input(Instant from, Instant to, String trace, String traceName) {
    }
}
