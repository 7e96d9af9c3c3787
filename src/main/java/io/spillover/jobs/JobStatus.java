package io.spillover.jobs;

import java.util.EnumSet;
import java.util.Set;

/** A job's life (SPEC §3.5.3): PENDING → STARTING → RUNNING → COMPLETED | FAILED; STOPPING → STOPPED from any live state. */
public enum JobStatus {
    PENDING, STARTING, RUNNING, STOPPING, COMPLETED, FAILED, STOPPED;

    private static final Set<JobStatus> ENDED = EnumSet.of(COMPLETED, FAILED, STOPPED);

    public boolean ended() {
        return ENDED.contains(this);
    }

    /** The states in which a job holds capacity on a provider. */
    public boolean onProvider() {
        return this == STARTING || this == RUNNING || this == STOPPING;
    }

    boolean canBecome(JobStatus next) {
        return switch (this) {
            case PENDING -> next == STARTING || next == STOPPED;
            // Back to PENDING when the provider refused the launch for capacity: the job falls through.
            case STARTING -> next == RUNNING || next == PENDING || next == STOPPING || next == COMPLETED
                    || next == FAILED || next == STOPPED;
            case RUNNING -> next == STOPPING || next == COMPLETED || next == FAILED || next == STOPPED;
            case STOPPING -> next == STOPPED || next == COMPLETED || next == FAILED;
            case COMPLETED, FAILED, STOPPED -> false;
        };
    }
}
