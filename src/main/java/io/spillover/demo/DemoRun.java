package io.spillover.demo;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Future;

/**
 * One run of the demo: its jobs as the script makes them, what it has said, and the steps still to come. Its
 * methods are synchronized: the script's thread, the listeners of job events and the requests that read or stop
 * it all reach it.
 */
final class DemoRun {

    private final String tag;
    private final Instant startedAt;
    private final String startedBy;
    private final List<DemoView.Line> lines = new ArrayList<>();
    /** The jobs submitted so far, by name, with their team. */
    private final Map<String, String> teamOf = new LinkedHashMap<>();
    private final Set<String> ended = new HashSet<>();
    private final Set<String> told = new HashSet<>();
    private final List<Future<?>> steps = new ArrayList<>();
    private int stepsLeft;
    private DemoView.Status status = DemoView.Status.RUNNING;
    private Instant endedAt;

    DemoRun(String tag, Instant startedAt, String startedBy, int steps) {
        this.tag = tag;
        this.startedAt = startedAt;
        this.startedBy = startedBy;
        this.stepsLeft = steps;
    }

    String tag() {
        return tag;
    }

    Instant startedAt() {
        return startedAt;
    }

    synchronized boolean running() {
        return status == DemoView.Status.RUNNING;
    }

    synchronized void scheduled(Future<?> step) {
        steps.add(step);
    }

    synchronized void says(Instant at, String text) {
        lines.add(new DemoView.Line(lines.size() + 1, at, offset(Duration.between(startedAt, at)), text));
    }

    /** A job the script submitted. */
    synchronized void submitted(String team, String name) {
        teamOf.put(name, team);
    }

    /** Whether the job is one of this run's. */
    synchronized boolean has(String team, String name) {
        return team.equals(teamOf.get(name));
    }

    /** Whether this is the first time something is told about the job under this key ({@code placed}, say). */
    synchronized boolean firstTime(String name, String key) {
        return told.add(name + "/" + key);
    }

    /** A step has run; once all have and every job has ended, the run is done. */
    synchronized void stepDone() {
        stepsLeft--;
    }

    synchronized void ended(String name) {
        ended.add(name);
    }

    /** Whether every step has run and every job it submitted has ended. */
    synchronized boolean over() {
        return stepsLeft <= 0 && ended.containsAll(teamOf.keySet());
    }

    /** The jobs submitted and not yet ended: their names and teams. */
    synchronized Map<String, String> live() {
        var live = new LinkedHashMap<String, String>();
        teamOf.forEach((name, team) -> {
            if (!ended.contains(name)) {
                live.put(name, team);
            }
        });
        return live;
    }

    /** Ends the run: the steps still to come are cancelled. */
    synchronized void end(DemoView.Status how, Instant at) {
        if (status != DemoView.Status.RUNNING) {
            return;
        }
        status = how;
        endedAt = at;
        steps.forEach(step -> step.cancel(false));
    }

    synchronized DemoView view(boolean available, String unavailableBecause) {
        return new DemoView(status, available, unavailableBecause, tag, startedAt, startedBy, endedAt,
                List.copyOf(lines), teamOf.entrySet().stream().map(e -> e.getValue() + "/" + e.getKey()).toList());
    }

    synchronized List<DemoView.Line> linesAfter(int id) {
        return List.copyOf(lines.subList(Math.min(Math.max(id, 0), lines.size()), lines.size()));
    }

    synchronized DemoView.Status status() {
        return status;
    }

    /** {@code +1:05}: minutes and seconds since the start. */
    static String offset(Duration since) {
        long seconds = Math.max(0, since.toSeconds());
        return String.format("+%d:%02d", seconds / 60, seconds % 60);
    }
}
