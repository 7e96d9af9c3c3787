package io.spillover.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import tools.jackson.databind.JsonNode;

/**
 * Follows one job until it ends on its event stream ({@code GET .../jobs/{job}/events}, server-sent events): no
 * polling, each transition and each new evaluation told on standard error (so standard output keeps only the
 * answer) as the service sends it, and each estimated start of the job while it waits (when it moves). On a terminal a status line redraws itself under them; elsewhere each is one
 * plain line, for a pipeline's log. A stream that ends before the job does (the instance restarted, the stream's
 * time ran out) is opened again with {@code Last-Event-ID}, so nothing is told twice or missed.
 */
final class JobWait {

    /** {@code --timeout} passed first; carries the job as last seen. */
    static final class TimedOut extends RuntimeException {
        final JsonNode job;

        TimedOut(JsonNode job, Duration timeout) {
            super("gave up waiting after " + Durations.format(timeout) + ": job " + JobText.text(job, "name")
                    + " is still " + JobText.text(job, "status") + " and goes on");
            this.job = job;
        }
    }

    /** Reconnections in a row without an event before the wait gives up. */
    static final int RECONNECTS = 8;

    private final SpilloverApi api;
    private final String path;
    private final String job;
    private final Duration timeout;
    private final PrintWriter progress;
    private final boolean terminal;
    private String status = "";
    private String likelyStart = "";
    private boolean statusLineShown;
    private long started;

    JobWait(SpilloverApi api, String team, String job, Duration timeout, Invocation invocation) {
        this.api = api;
        this.path = "/api/v1/teams/" + SpilloverApi.segment(team) + "/jobs/" + SpilloverApi.segment(job);
        this.job = job;
        this.timeout = timeout;
        this.progress = invocation.err();
        this.terminal = invocation.terminal();
    }

    /** The job once it has ended; {@link TimedOut} when {@code timeout} (if any) passes first. */
    JsonNode untilEnded() {
        started = System.nanoTime();
        var timedOut = new AtomicBoolean();
        var open = new AtomicReference<EventStream>();
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "spillover-wait-timeout");
            thread.setDaemon(true);
            return thread;
        });
        Thread waiting = Thread.currentThread();
        if (timeout != null) {
            timer.schedule(() -> {
                timedOut.set(true);
                EventStream stream = open.get();
                if (stream != null) {
                    stream.close();
                }
                waiting.interrupt(); // a read in progress ends only so
            }, timeout.toNanos(), TimeUnit.NANOSECONDS);
        }
        try {
            String lastId = null;
            int reconnects = 0;
            while (!timedOut.get()) {
                try (EventStream stream = api.events(path + "/events", lastId)) {
                    open.set(stream);
                    if (timedOut.get()) {
                        break;
                    }
                    EventStream.Event event;
                    while ((event = stream.next(this::statusLine)) != null) {
                        reconnects = 0;
                        JsonNode data = SpilloverApi.JSON.readTree(event.data());
                        switch (event.name()) {
                            case "transition" -> {
                                lastId = event.id();
                                status = JobText.text(data, "to");
                                if (!"PENDING".equals(status)) {
                                    likelyStart = "";
                                }
                                print(job + " " + JobText.transition(data));
                            }
                            case "evaluation" -> JobText.evaluation(data).forEach(this::print);
                            case "estimate" -> {
                                likelyStart = JobText.likelyStart(data);
                                print(job + " estimated start " + JobText.text(data, "estimatedAt") + ": "
                                        + JobText.estimate(pending(data)));
                            }
                            case "end" -> {
                                clearStatusLine();
                                return data;
                            }
                            default -> { }
                        }
                        statusLine();
                    }
                } catch (IOException | ApiException e) {
                    if (timedOut.get()) {
                        break;
                    }
                    if (e instanceof ApiException refused && refused.status > 0) {
                        throw refused; // the service answered no: the job, the team or the token is wrong
                    }
                }
                if (timedOut.get() || ++reconnects > RECONNECTS) {
                    break;
                }
                try {
                    Thread.sleep(Math.min(5_000, 200L << reconnects));
                } catch (InterruptedException e) {
                    // the timeout's interrupt: the loop ends
                }
            }
            clearStatusLine();
            if (timedOut.get()) {
                stopTimer(timer);
                throw new TimedOut(api.get(path), timeout);
            }
            throw new ApiException(0, "lost the event stream of job " + job + " " + RECONNECTS + " times in a row", null);
        } finally {
            stopTimer(timer);
        }
    }

    /** Stops the timer and lets its interrupt, if it fired, go no further than this wait. */
    private static void stopTimer(ScheduledExecutorService timer) {
        timer.shutdownNow();
        boolean stopped = false;
        for (int tries = 0; tries < 3 && !stopped; tries++) {
            try {
                stopped = timer.awaitTermination(1, TimeUnit.SECONDS);
            } catch (InterruptedException timersOwn) {
                // the timer's interrupt, landing now: try again until its task is over
            }
        }
        Thread.interrupted();
    }

    /** The estimate as the estimatedStart of a pending job, to tell it as describe does. */
    private static JsonNode pending(JsonNode estimate) {
        var job = SpilloverApi.JSON.createObjectNode();
        job.put("status", "PENDING");
        job.set("estimatedStart", estimate);
        return job;
    }

    private void print(String line) {
        clearStatusLine();
        progress.println(line);
        progress.flush();
    }

    private void statusLine() {
        if (!terminal || status.isEmpty()) {
            return;
        }
        progress.print("\r\033[2K" + job + "  " + status + "  "
                + Durations.format(Duration.ofNanos(System.nanoTime() - started))
                + (likelyStart.isEmpty() || "-".equals(likelyStart) ? "" : "  likely start " + likelyStart));
        progress.flush();
        statusLineShown = true;
    }

    private void clearStatusLine() {
        if (statusLineShown) {
            progress.print("\r\033[2K");
            progress.flush();
            statusLineShown = false;
        }
    }
}
