package io.spillover.replay;

import java.util.Objects;

/**
 * One job of a trace as recorded: who submitted it when, how many GPUs it asked for, and how long it runs on
 * each GPU generation.
 *
 * @param submitSeconds virtual time of submission, in seconds from the start of the trace
 */
public record TraceJob(String id, String team, long submitSeconds, int gpus, String jobType,
                       long k80Seconds, long p100Seconds, long v100Seconds) {

    public TraceJob {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(team, "team");
        if (submitSeconds < 0 || gpus < 1 || k80Seconds < 1 || p100Seconds < 1 || v100Seconds < 1) {
            throw new IllegalArgumentException("impossible trace job " + id);
        }
    }

    public long durationSeconds(Generation generation) {
        return switch (generation) {
            case K80 -> k80Seconds;
            case P100 -> p100Seconds;
            case V100 -> v100Seconds;
        };
    }
}
