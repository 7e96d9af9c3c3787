package io.spillover.jobs;

import java.time.Duration;

/**
 * A job was placed: on which entry of its list ({@code index}, 0 for the first choice), from which source
 * ({@code on-demand} or {@code plan:<name>}), after waiting how long since submission.
 */
public record JobPlaced(String team, int index, String source, Duration waited) {
}
