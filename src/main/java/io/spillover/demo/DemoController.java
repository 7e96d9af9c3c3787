package io.spillover.demo;

import io.spillover.system.Access;
import java.net.URI;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/** Platform admins start, follow and stop the demo. */
@RestController
class DemoController {

    private final DemoService demo;
    private final DemoStreams streams;

    DemoController(DemoService demo, DemoStreams streams) {
        this.demo = demo;
        this.streams = streams;
    }

    /** Whether the demo may start here, and the latest run with everything it said. */
    @GetMapping("/api/v1/admin/demo")
    @Access(Access.Level.PLATFORM_ADMIN)
    DemoView get() {
        return demo.view();
    }

    /** Starts a run: 202, its steps follow; 409 when one runs already or the demo makes no sense here. */
    @PostMapping("/api/v1/admin/demo")
    @Access(Access.Level.PLATFORM_ADMIN)
    ResponseEntity<DemoView> start() {
        return ResponseEntity.accepted().location(URI.create("/api/v1/admin/demo")).body(demo.start());
    }

    /** Stops the run in progress and its live jobs; with none running, answers the demo as it is. */
    @PostMapping("/api/v1/admin/demo:stop")
    @Access(Access.Level.PLATFORM_ADMIN)
    DemoView stop() {
        return demo.stop();
    }

    /**
     * What the run in progress says, as server-sent events: each line ({@code event: line}, its id the line's),
     * then {@code event: end} with the demo once the run is over (at once when none runs). Reconnect with
     * {@code Last-Event-ID} to get only the lines after it.
     */
    @GetMapping(path = "/api/v1/admin/demo/events", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    @Access(Access.Level.PLATFORM_ADMIN)
    SseEmitter events(@RequestHeader(name = "Last-Event-ID", required = false) String lastEventId) {
        int after = 0;
        if (lastEventId != null && lastEventId.strip().matches("\\d{1,9}")) {
            after = Integer.parseInt(lastEventId.strip());
        }
        return streams.open(after);
    }
}
