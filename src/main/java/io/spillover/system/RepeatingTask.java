package io.spillover.system;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.springframework.context.SmartLifecycle;

/**
 * Work repeated from startup on, at a fixed delay, on a daemon thread of its own; nothing when the interval is
 * empty (the provider has nothing to read). Each run must handle its own failures: one that throws would end
 * the repetition.
 */
public abstract class RepeatingTask implements SmartLifecycle {

    private final String threadName;
    private ScheduledExecutorService timer;

    protected RepeatingTask(String threadName) {
        this.threadName = threadName;
    }

    /** How often to run; empty for never. */
    protected abstract Optional<Duration> interval();

    /** One run; it logs and swallows what goes wrong. */
    protected abstract void runOnce();

    @Override
    public void start() {
        interval().ifPresent(interval -> {
            timer = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread thread = new Thread(r, threadName);
                thread.setDaemon(true);
                return thread;
            });
            timer.scheduleWithFixedDelay(this::runOnce, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
        });
    }

    @Override
    public void stop() {
        if (timer != null) {
            timer.shutdownNow();
            timer = null;
        }
    }

    @Override
    public boolean isRunning() {
        return timer != null;
    }
}
