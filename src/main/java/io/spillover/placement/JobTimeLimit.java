package io.spillover.placement;

import java.time.Duration;

/**
 * The longest a job may wait for capacity or run: SageMaker AI's limit of 28 days, which Spillover keeps under
 * every provider so that a job moves between them unchanged (SPEC §3.2.3).
 */
public final class JobTimeLimit {

    public static final long MAX_SECONDS = 2_419_200;
    public static final Duration MAX = Duration.ofSeconds(MAX_SECONDS);

    private JobTimeLimit() {
    }
}
