package io.spillover.jobs;

import io.spillover.catalog.JobKind;
import io.spillover.placement.PlacementRequest;
import io.spillover.placement.PreferenceList;
import io.spillover.placement.QueuedRequest;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

/**
 * A pending job as the scheduler reads it: enough to evaluate it, nothing more.
 *
 * @param fallbackAfter   its own patience, null for the platform's
 * @param maxRuntime      its maximum run time, null when it has none
 * @param hint            how long its user expects it to run ({@code expectedRuntimeSeconds}), null for no hint
 * @param pendingDeadline when its maximum pending time runs out
 * @param profile         the profile it was submitted with, null for none
 * @param sweep           the sweep it belongs to ({@link io.spillover.placement.ExpectedRuns}): the first job's id
 * @param evaluated       whether a cycle has evaluated it before: the first is its submission's
 * @param preemptible     whether it may be preempted if it borrows: it opted in, with a checkpoint, and was not yet
 *                        preempted as often as {@code spillover.sharing.max-preemptions} allows
 * @param gaveWay         whether its last attempt was stopped for a shorter job of its own team: it resumes first
 *                        ({@link QueuedRequest#gaveWay})
 */
public record QueuedJob(UUID id, String team, JobKind kind, int priority, Instant createdAt,
                        PreferenceList preferences, Duration fallbackAfter, Duration maxRuntime, Duration hint,
                        Instant pendingDeadline, String profile, UUID sweep, boolean evaluated, boolean preemptible,
                        boolean gaveWay) {

    /** @param expectedRuntime what the scheduler expects of its run (see {@code FairShares}), null for nothing */
    public QueuedRequest<UUID> queued(Duration expectedRuntime) {
        return new QueuedRequest<>(id, new PlacementRequest(team, kind, preferences, maxRuntime, preemptible), priority,
                createdAt, fallbackAfter, expectedRuntime, gaveWay);
    }
}
