package io.spillover.scheduling;

import java.time.Duration;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.springframework.stereotype.Component;

/**
 * Whether this instance has placement work in hand: a scheduling cycle running (with the sweep's reconciling), or
 * anything else that {@link #begin() begins} placement work. Work that must never slow a placement, the estimator's,
 * {@link #stepAside steps aside} while there is some: on two cores, a wake-up that shares them with a forecast waits
 * for it.
 *
 * <p>Only the leader has any: a standby runs no cycle.
 */
@Component
public class PlacementActivity {

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition quiet = lock.newCondition();
    private int inHand;

    /** Placement work, in hand until closed. */
    public interface Work extends AutoCloseable {

        @Override
        void close();
    }

    /** Placement work begins; it is in hand until the returned {@link Work} is closed (once; closing again does nothing). */
    public Work begin() {
        lock.lock();
        try {
            inHand++;
        } finally {
            lock.unlock();
        }
        return new Work() {
            private boolean closed;

            @Override
            public void close() {
                lock.lock();
                try {
                    if (!closed) {
                        closed = true;
                        if (--inHand == 0) {
                            quiet.signalAll();
                        }
                    }
                } finally {
                    lock.unlock();
                }
            }
        };
    }

    /** Whether placement work is in hand now. */
    public boolean busy() {
        lock.lock();
        try {
            return inHand > 0;
        } finally {
            lock.unlock();
        }
    }

    /** Whether some work is stepping aside now, waiting for the placement work in hand to end. */
    public boolean steppingAside() {
        lock.lock();
        try {
            return lock.hasWaiters(quiet);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits while placement work is in hand, at most {@code atMost}.
     *
     * @return how long it waited: zero when there was none
     */
    public Duration stepAside(Duration atMost) throws InterruptedException {
        lock.lock();
        try {
            if (inHand == 0) {
                return Duration.ZERO;
            }
            long began = System.nanoTime();
            long left = atMost.toNanos();
            while (inHand > 0 && left > 0) {
                left = quiet.awaitNanos(left);
            }
            return Duration.ofNanos(System.nanoTime() - began);
        } finally {
            lock.unlock();
        }
    }
}
