package io.spillover.jobs;

import java.util.EnumSet;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A job's life (SPEC §3.5.3): PENDING → STARTING → RUNNING → COMPLETED | FAILED; STOPPING → STOPPED from any live
 * state; back to PENDING when a launch is refused, an attempt is lost, or a preempted attempt has stopped.
 */
public enum JobStatus {
    PENDING, STARTING, RUNNING, STOPPING, COMPLETED, FAILED, STOPPED;

    private static final EnumSet<JobStatus> ENDED = EnumSet.of(COMPLETED, FAILED, STOPPED);
    /** Waiting or on the provider: every state but the ends. */
    static final Set<JobStatus> LIVE = EnumSet.complementOf(ENDED);
    /** The states in which a job holds capacity on a provider. */
    static final Set<JobStatus> ON_PROVIDER = EnumSet.of(STARTING, RUNNING, STOPPING);
    /** On the provider and meant to go on running: not asked to stop. */
    static final Set<JobStatus> MEANT_TO_RUN = EnumSet.of(STARTING, RUNNING);

    public boolean ended() {
        return ENDED.contains(this);
    }

    public boolean onProvider() {
        return ON_PROVIDER.contains(this);
    }

    /**
     * {@code status IN ('STARTING', 'RUNNING')} for a set of states. Written into the statement, not bound, so
     * PostgreSQL matches the partial indexes on the same sets (V1, V3) whatever the plan's parameters.
     */
    static String statusIn(Set<JobStatus> states) {
        return states.stream().map(s -> "'" + s.name() + "'").collect(Collectors.joining(", ", "status IN (", ")"));
    }

    boolean canBecome(JobStatus next) {
        return switch (this) {
            case PENDING -> next == STARTING || next == STOPPED;
            // Back to PENDING when the provider refused the launch for capacity: the job falls through.
            case STARTING -> next == RUNNING || next == PENDING || next == STOPPING || next == COMPLETED
                    || next == FAILED || next == STOPPED;
            // Back to PENDING, too, when the attempt was lost with what ran it: the job is placed again.
            case RUNNING -> next == PENDING || next == STOPPING || next == COMPLETED || next == FAILED
                    || next == STOPPED;
            // Back to PENDING when it was stopped to be preempted: it waits again at its queue position.
            case STOPPING -> next == STOPPED || next == COMPLETED || next == FAILED || next == PENDING;
            case COMPLETED, FAILED, STOPPED -> false;
        };
    }
}
