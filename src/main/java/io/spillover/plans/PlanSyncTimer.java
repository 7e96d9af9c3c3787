package io.spillover.plans;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Syncs plans with the provider from startup on, every {@link PlanSource#planSyncInterval()}; nothing when
 * plans follow their window. Every replica syncs (the result is the same, written idempotently).
 */
@Component
class PlanSyncTimer implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(PlanSyncTimer.class);

    private final PlanSync sync;
    private final PlanSource source;
    private ScheduledExecutorService timer;

    PlanSyncTimer(PlanSync sync, PlanSource source) {
        this.sync = sync;
        this.source = source;
    }

    @Override
    public void start() {
        source.planSyncInterval().ifPresent(this::start);
    }

    private void start(Duration interval) {
        timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "spillover-plan-sync");
            thread.setDaemon(true);
            return thread;
        });
        timer.scheduleWithFixedDelay(this::syncPlans, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void syncPlans() {
        try {
            sync.sync();
        } catch (RuntimeException e) {
            log.warn("Training plans not synced with the provider; they stay as they were: {}", e.getMessage());
        }
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
