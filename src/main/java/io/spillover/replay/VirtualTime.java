package io.spillover.replay;

import java.time.Instant;

/** Virtual seconds as the instants the placement core takes; the replay never reads a clock. */
final class VirtualTime {

    private VirtualTime() {
    }

    static Instant at(long seconds) {
        return Instant.EPOCH.plusSeconds(seconds);
    }

    /** The virtual second of an instant, rounded up: nothing the core schedules happens before it is due. */
    static long seconds(Instant instant) {
        return instant.getEpochSecond() + (instant.getNano() > 0 ? 1 : 0);
    }
}
