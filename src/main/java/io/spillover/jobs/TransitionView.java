package io.spillover.jobs;

import java.time.Instant;

public record TransitionView(Instant at, JobStatus from, JobStatus to, StatusReason reason, String message,
                             int attempt) {

    static TransitionView of(Transition t) {
        return new TransitionView(t.at(), t.from(), t.to(), t.reason(), t.message(), t.attempt());
    }
}
