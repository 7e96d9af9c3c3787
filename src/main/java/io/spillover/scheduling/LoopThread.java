package io.spillover.scheduling;

import java.time.Duration;

/**
 * A loop on a daemon thread of its own, for a lifecycle bean: it runs while {@link #running()}, and a stop turns
 * that false, interrupts whatever the loop waits on and gives it a while to finish.
 */
final class LoopThread {

    private final String name;
    private final Duration finishWithin;
    private volatile boolean running;
    private Thread thread;

    LoopThread(String name, Duration finishWithin) {
        this.name = name;
        this.finishWithin = finishWithin;
    }

    void start(Runnable loop) {
        running = true;
        thread = new Thread(loop, name);
        thread.setDaemon(true);
        thread.start();
    }

    void stop() {
        running = false;
        if (thread != null) {
            thread.interrupt();
            try {
                thread.join(finishWithin.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    boolean running() {
        return running;
    }
}
