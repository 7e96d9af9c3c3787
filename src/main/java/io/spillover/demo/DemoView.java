package io.spillover.demo;

import java.time.Instant;
import java.util.List;

/**
 * The demo as the API and the console show it: whether it can run here, and the latest run with what it said.
 *
 * @param status             {@code IDLE} (never run here), {@code RUNNING}, {@code DONE} (every job of it ended)
 *                           or {@code STOPPED} (on request)
 * @param available          whether a demo may start on this platform now
 * @param unavailableBecause why not, in words; null when it may
 * @param run                the latest run's tag: its jobs are named {@code demo-<run>-<role>}
 * @param lines              what the latest run said, oldest first
 * @param jobs               the latest run's jobs, as {@code team/name}
 */
public record DemoView(Status status, boolean available, String unavailableBecause, String run, Instant startedAt,
                       String startedBy, Instant endedAt, List<Line> lines, List<String> jobs) {

    public enum Status { IDLE, RUNNING, DONE, STOPPED }

    /**
     * One thing the demo said.
     *
     * @param id     its place in the run, from 1: the event id of the demo's event stream
     * @param offset the time since the run started, {@code +1:05}
     */
    public record Line(int id, Instant at, String offset, String text) {
    }

    public boolean running() {
        return status == Status.RUNNING;
    }
}
