package io.spillover.replay;

/** Told how far a replay has come: how many of its jobs have started. Called on the replay's own thread. */
@FunctionalInterface
public interface Progress {

    Progress NONE = (started, of) -> { };

    /** @param started jobs started so far; @param of jobs in the replay */
    void started(int started, int of);
}
