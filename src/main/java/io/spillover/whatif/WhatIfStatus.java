package io.spillover.whatif;

/** Where a what-if run is: waiting for a worker, replaying, done with a result, or failed with a reason. */
public enum WhatIfStatus {
    QUEUED, RUNNING, DONE, FAILED;

    public boolean finished() {
        return this == DONE || this == FAILED;
    }
}
