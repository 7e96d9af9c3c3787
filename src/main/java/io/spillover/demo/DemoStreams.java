package io.spillover.demo;

import java.io.IOException;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.event.EventListener;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * The demo's event streams ({@code GET /api/v1/admin/demo/events}), which {@code spillover demo} follows: each
 * stream sends the lines of the run in progress it has not sent, and {@code end} once the run is over. All
 * sending happens on one thread, so a stream's events never interleave.
 */
@Component
class DemoStreams implements SmartLifecycle {

    static final Duration HEARTBEAT = Duration.ofSeconds(15);
    static final Duration STREAM_TIMEOUT = Duration.ofMinutes(30);

    /** One open stream: the run it follows and the last line it sent. */
    private static final class Stream {
        final SseEmitter emitter;
        String run;
        int lastId;
        boolean ended;

        Stream(SseEmitter emitter, int lastId) {
            this.emitter = emitter;
            this.lastId = lastId;
        }
    }

    private final DemoService demo;
    private final Set<Stream> open = ConcurrentHashMap.newKeySet();
    private ScheduledExecutorService sender;
    private volatile boolean running;

    DemoStreams(DemoService demo) {
        this.demo = demo;
    }

    SseEmitter open(int afterId) {
        var emitter = new SseEmitter(STREAM_TIMEOUT.toMillis());
        if (!running) {
            emitter.complete();
            return emitter;
        }
        var stream = new Stream(emitter, afterId);
        open.add(stream);
        emitter.onCompletion(() -> open.remove(stream));
        emitter.onTimeout(() -> open.remove(stream));
        emitter.onError(e -> open.remove(stream));
        sender.execute(() -> catchUp(stream));
        return emitter;
    }

    @EventListener
    void on(DemoProgressed event) {
        if (running) {
            sender.execute(() -> open.forEach(this::catchUp));
        }
    }

    /** Sends what the stream has not sent; on the sender thread only. */
    private void catchUp(Stream stream) {
        if (stream.ended) {
            return;
        }
        DemoRun run = demo.latest();
        if (run != null && stream.run == null && run.running()) {
            stream.run = run.tag();
        }
        if (run != null && run.tag().equals(stream.run)) {
            for (DemoView.Line line : run.linesAfter(stream.lastId)) {
                if (!send(stream, SseEmitter.event().id(Integer.toString(line.id())).name("line")
                        .data(line, MediaType.APPLICATION_JSON))) {
                    return;
                }
                stream.lastId = line.id();
            }
        }
        if (run == null || !run.tag().equals(stream.run) || !run.running()) {
            stream.ended = true;
            send(stream, SseEmitter.event().name("end").data(demo.view(), MediaType.APPLICATION_JSON));
            stream.emitter.complete();
            open.remove(stream);
        }
    }

    private boolean send(Stream stream, SseEmitter.SseEventBuilder event) {
        try {
            stream.emitter.send(event);
            return true;
        } catch (IOException | IllegalStateException gone) {
            stream.ended = true;
            open.remove(stream);
            return false;
        }
    }

    @Override
    public void start() {
        sender = Executors.newSingleThreadScheduledExecutor(r -> {
            var thread = new Thread(r, "spillover-demo-streams");
            thread.setDaemon(true);
            return thread;
        });
        sender.scheduleWithFixedDelay(() -> open.forEach(s -> send(s, SseEmitter.event().comment("keep-alive"))),
                HEARTBEAT.toMillis(), HEARTBEAT.toMillis(), TimeUnit.MILLISECONDS);
        running = true;
    }

    /** Ends open streams before the web server's graceful shutdown, which would otherwise wait for them. */
    @Override
    public void stop() {
        running = false;
        sender.shutdownNow();
        open.forEach(s -> s.emitter.complete());
        open.clear();
    }

    @Override
    public boolean isRunning() {
        return running;
    }
}
