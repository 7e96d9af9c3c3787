package io.spillover.whatif;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * A what-if run as the API and console show it: where it is, what it replayed on which configurations, and, once
 * done, the figures of both sides.
 *
 * @param progress     share of the replays' jobs started so far, both sides together; 1 when done
 * @param changes      each edit in words, against what it changed
 * @param assumptions  what the replay takes for given that the input does not say
 * @param result       null until done
 */
public record WhatIfView(UUID id, WhatIfStatus status, double progress, String startedBy, Instant createdAt,
                         Instant startedAt, Instant finishedAt, String error, InputView input, List<Edit> edits,
                         List<String> changes, List<String> assumptions, Sides<Configuration> configurations,
                         Sides<Figures> result) {

    /**
     * What was replayed.
     *
     * @param kind        {@code history} or {@code trace}
     * @param jobs        the jobs replayed on both sides
     * @param heldAtStart runs from before the window holding instances when it began
     * @param skipped     jobs of the input left out, and why
     */
    public record InputView(String kind, Instant from, Instant to, String traceName, int jobs, int teams,
                            int heldAtStart, List<Skipped> skipped) {
    }

    /** The baseline (the platform as it is) and the change, side by side. */
    public record Sides<T>(T baseline, T change) {
    }
}
