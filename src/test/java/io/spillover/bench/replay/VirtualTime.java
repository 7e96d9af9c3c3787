package io.spillover.bench.replay;

import java.time.Instant;

/** Virtual seconds as the instants the placement core takes; the replay never reads a clock. */
final class VirtualTime {

    private VirtualTime() {
    }

    static Instant at(long seconds) {
        return Instant.EPOCH.plusSeconds(seconds);
    }
}
