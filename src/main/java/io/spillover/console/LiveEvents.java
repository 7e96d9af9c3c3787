package io.spillover.console;

import io.spillover.demo.DemoProgressed;
import io.spillover.jobs.JobTransitioned;
import io.spillover.jobs.StartsEstimated;
import io.spillover.security.Caller;
import io.spillover.whatif.WhatIfProgressed;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Controller;
import org.springframework.transaction.event.TransactionalEventListener;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * Server-sent events for open console pages: each job transition, once committed, goes to the people who
 * may see the job's team; each step of a what-if run and of the demo, to platform admins. Pages redraw the parts it concerns (htmx), so they update without a reload.
 */
@Controller
class LiveEvents implements SmartLifecycle {

    /** Sent to platform admins when any what-if run moves on, for the list of runs. */
    static final String WHAT_IF_CHANGED = "whatif-changed";

    /** Sent to platform admins when the demo says something, starts or ends, for its panel on the dashboard. */
    static final String DEMO_CHANGED = "demo-changed";

    /** Sent when estimated starts moved, for the queue and the pages of pending jobs. */
    static final String ESTIMATES_CHANGED = "estimates-changed";

    /** Streams end after this; the page's event source reconnects by itself. */
    static final long TIMEOUT_MILLIS = 5 * 60 * 1000L;

    private final ConsoleAccess access;
    private final Map<SseEmitter, Caller> open = new ConcurrentHashMap<>();
    private volatile boolean running;

    LiveEvents(ConsoleAccess access) {
        this.access = access;
    }

    /**
     * Opens a stream. Its first event ({@code watch}, or {@code job-changed}) makes the page redraw once, so a
     * change made while the page loaded, before the stream opened, is not missed.
     */
    @GetMapping("/events")
    SseEmitter subscribe(@RequestParam(required = false) String watch) throws IOException {
        Caller caller = access.caller();
        var emitter = new SseEmitter(TIMEOUT_MILLIS);
        if (!running) {
            emitter.complete();
            return emitter;
        }
        open.put(emitter, caller);
        emitter.onCompletion(() -> open.remove(emitter));
        emitter.onTimeout(() -> open.remove(emitter));
        emitter.onError(e -> open.remove(emitter));
        String first = watch != null && (watch.matches("job-[a-z0-9-]+-[A-Za-z0-9-]+")
                || watch.matches("whatif-[0-9a-f-]{36}") || watch.equals(WHAT_IF_CHANGED)) ? watch : "job-changed";
        emitter.send(SseEmitter.event().name(first).data("connected"));
        return emitter;
    }

    @Override
    public void start() {
        running = true;
    }

    /** Ends open streams before the web server's graceful shutdown, which would otherwise wait for them. */
    @Override
    public void stop() {
        running = false;
        open.keySet().forEach(SseEmitter::complete);
        open.clear();
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /**
     * Sends {@code whatif-<id>} (its status and progress) for the page of that run, and {@code whatif-changed} for the
     * list of runs, to platform admins only: what-if runs are theirs.
     */
    @TransactionalEventListener(fallbackExecution = true)
    void on(WhatIfProgressed event) {
        open.forEach((emitter, caller) -> {
            if (!caller.platformAdmin()) {
                return;
            }
            try {
                emitter.send(SseEmitter.event().name("whatif-" + event.run()).data(event.status() + " "
                        + Math.round(event.progress() * 100)));
                emitter.send(SseEmitter.event().name(WHAT_IF_CHANGED).data(event.run().toString()));
            } catch (IOException | IllegalStateException gone) {
                open.remove(emitter);
            }
        });
    }

    /** Sends {@code demo-changed} to platform admins: the demo is theirs, and it names every demo team's jobs. */
    @EventListener
    void on(DemoProgressed event) {
        open.forEach((emitter, caller) -> {
            if (!caller.platformAdmin()) {
                return;
            }
            try {
                emitter.send(SseEmitter.event().name(DEMO_CHANGED).data(event.run() + " " + event.status()));
            } catch (IOException | IllegalStateException gone) {
                open.remove(emitter);
            }
        });
    }

    /**
     * Sends {@code estimates-changed} to those who may see one of the teams whose estimated starts moved, naming only
     * the teams each may see (comma-separated; {@code *} when every team's may have moved): the queue and the pages
     * of pending jobs redraw.
     */
    @EventListener
    void on(StartsEstimated event) {
        open.forEach((emitter, caller) -> {
            List<String> seen = event.teams().stream().filter(caller::sees).sorted().toList();
            if (!event.teams().isEmpty() && seen.isEmpty()) {
                return;
            }
            try {
                emitter.send(SseEmitter.event().name(ESTIMATES_CHANGED)
                        .data(event.teams().isEmpty() ? "*" : String.join(",", seen)));
            } catch (IOException | IllegalStateException gone) {
                open.remove(emitter);
            }
        });
    }

    /** Sends {@code job-changed} to everyone watching, and {@code job-<name>} for the pages of that job. */
    @TransactionalEventListener(fallbackExecution = true)
    void on(JobTransitioned event) {
        open.forEach((emitter, caller) -> {
            if (!caller.sees(event.team())) {
                return;
            }
            try {
                emitter.send(SseEmitter.event().name("job-changed").data(event.team() + "/" + event.jobName()));
                emitter.send(SseEmitter.event().name("job-" + event.team() + "-" + event.jobName())
                        .data(event.status().name()));
            } catch (IOException | IllegalStateException gone) {
                open.remove(emitter);
            }
        });
    }
}
