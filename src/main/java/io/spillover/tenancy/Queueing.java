package io.spillover.tenancy;

/** How a team's pending jobs start relative to each other. */
public enum Queueing {
    /** A job that does not fit does not block smaller jobs behind it. */
    BEST_EFFORT_FIFO,
    /** Jobs start strictly in queue order: one that does not fit holds the team's later jobs back. */
    STRICT_FIFO
}
