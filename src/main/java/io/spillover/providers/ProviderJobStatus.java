package io.spillover.providers;

/** A job's state as the provider sees it. */
public enum ProviderJobStatus {
    STARTING, RUNNING, COMPLETED, FAILED, STOPPED;

    public boolean ended() {
        return this == COMPLETED || this == FAILED || this == STOPPED;
    }
}
