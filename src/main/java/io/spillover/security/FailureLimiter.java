package io.spillover.security;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * Counts failed sign-ins, bad tokens and refused signatures per client address; past {@code max-failures} within
 * {@code window}, the address is refused (429) until the window ends. In memory: each replica counts its
 * own, which bounds guessing per replica, the point of it.
 */
@Component
public class FailureLimiter {

    private record Window(Instant start, int failures) {
    }

    private final Map<String, Window> windows = new ConcurrentHashMap<>();
    private final int maxFailures;
    private final Duration window;
    private final Clock clock;

    FailureLimiter(@Value("${spillover.security.max-failures:20}") int maxFailures,
                   @Value("${spillover.security.failure-window:1m}") Duration window, Clock clock) {
        this.maxFailures = maxFailures;
        this.window = window;
        this.clock = clock;
    }

    public void failed(String source) {
        Instant now = clock.instant();
        windows.merge(source, new Window(now, 1), (old, fresh) ->
                old.start().plus(window).isBefore(now) ? fresh : new Window(old.start(), old.failures() + 1));
        if (windows.size() > 100_000) {
            windows.values().removeIf(w -> w.start().plus(window).isBefore(now));
        }
    }

    /** How long the source must wait, when it has failed too often. */
    public Optional<Duration> blocked(String source) {
        Window current = windows.get(source);
        Instant now = clock.instant();
        if (current == null || current.failures() < maxFailures || current.start().plus(window).isBefore(now)) {
            return Optional.empty();
        }
        return Optional.of(Duration.between(now, current.start().plus(window)));
    }
}
