package io.spillover.cli;

import java.io.PrintWriter;
import java.time.Duration;
import tools.jackson.databind.JsonNode;

/**
 * Watches one job until it ends: every {@code interval} it reads the job and its latest evaluation, and tells
 * what changed on standard error (so standard output keeps only the answer). On a terminal a status line redraws
 * itself under the changes; elsewhere each change is one plain line, for a pipeline's log.
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

    private final SpilloverApi api;
    private final String path;
    private final Duration interval;
    private final Duration timeout;
    private final PrintWriter progress;
    private final boolean terminal;
    private int transitionsShown;
    private String evaluationShown;
    private boolean statusLineShown;

    JobWait(SpilloverApi api, String team, String job, Duration interval, Duration timeout, Invocation invocation) {
        this.api = api;
        this.path = "/api/v1/teams/" + SpilloverApi.segment(team) + "/jobs/" + SpilloverApi.segment(job);
        this.interval = interval;
        this.timeout = timeout;
        this.progress = invocation.err();
        this.terminal = invocation.terminal();
    }

    /** The job once it has ended; {@link TimedOut} when {@code timeout} (if any) passes first. */
    JsonNode untilEnded() {
        long started = System.nanoTime();
        while (true) {
            JsonNode job = api.get(path);
            show(job);
            if (ExitCode.ended(JobText.text(job, "status"))) {
                clearStatusLine();
                return job;
            }
            Duration waited = Duration.ofNanos(System.nanoTime() - started);
            if (timeout != null && waited.compareTo(timeout) >= 0) {
                clearStatusLine();
                throw new TimedOut(job, timeout);
            }
            if (terminal) {
                statusLine(job, waited);
            }
            pause(timeout == null ? interval : min(interval, timeout.minus(waited)));
        }
    }

    private void show(JsonNode job) {
        JsonNode transitions = job.path("transitions");
        for (; transitionsShown < transitions.size(); transitionsShown++) {
            print(JobText.text(job, "name") + " " + JobText.transition(transitions.get(transitionsShown)));
        }
        // Only a waiting job is evaluated again; once placed, its transitions say the rest.
        if ("PENDING".equals(JobText.text(job, "status"))) {
            JsonNode latest = api.get(path + "/evaluations?limit=1");
            if (!latest.isEmpty()) {
                JsonNode evaluation = latest.get(0);
                // Repeats of the same outcome and reasons are counted, not shown again.
                String key = JobText.text(evaluation, "at") + evaluation.path("entries");
                if (!key.equals(evaluationShown)) {
                    evaluationShown = key;
                    JobText.evaluation(evaluation).forEach(this::print);
                }
            }
        }
    }

    private void print(String line) {
        clearStatusLine();
        progress.println(line);
        progress.flush();
    }

    private void statusLine(JsonNode job, Duration waited) {
        String line = JobText.text(job, "name") + "  " + JobText.text(job, "status") + "  " + Durations.format(waited)
                + (job.path("selection").isObject() ? "  on " + JobText.selection(job.get("selection")) : "");
        progress.print("\r\033[2K" + line);
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

    static void pause(Duration duration) {
        try {
            Thread.sleep(Math.max(1, duration.toMillis()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ApiException(0, "interrupted while waiting", null);
        }
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }
}
