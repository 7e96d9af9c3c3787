package io.spillover.scheduling;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.springframework.stereotype.Component;

/** Where events leave work for the scheduler thread, which sleeps until there is some or a timer falls due. */
@Component
class Wakeups {

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition arrived = lock.newCondition();
    private final Clock clock;
    private Scope pending = new Scope();

    Wakeups(Clock clock) {
        this.clock = clock;
    }

    void add(Scope scope) {
        lock.lock();
        try {
            pending.and(scope);
            arrived.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Gives back named jobs a cycle deferred: they keep their place ahead of what arrived since, and whatever arrived
     * since about the same job is newer, so its trigger wins.
     */
    void giveBack(Scope deferred) {
        lock.lock();
        try {
            pending = deferred.and(pending);
            arrived.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Waits until work arrives or {@code until} passes, then takes what has gathered (maybe nothing). */
    Scope await(Instant until) throws InterruptedException {
        lock.lock();
        try {
            while (pending.isEmpty()) {
                long nanos = Duration.between(clock.instant(), until).toNanos();
                if (nanos <= 0) {
                    break;
                }
                arrived.awaitNanos(Math.min(nanos, TimeUnit.SECONDS.toNanos(60)));
            }
            Scope taken = pending;
            pending = new Scope();
            return taken;
        } finally {
            lock.unlock();
        }
    }
}
