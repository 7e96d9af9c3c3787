package io.spillover.capacity;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Reads the account's limits from startup on, every {@link ProviderFleet#limitRefreshInterval()}; nothing under
 * a provider whose offerings are all declared. Every replica reads (the result is the same, written
 * idempotently), as plans sync.
 */
@Component
class CapacityRefreshTimer implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(CapacityRefreshTimer.class);

    private final CapacityRefresh refresh;
    private final ProviderFleet provider;
    private ScheduledExecutorService timer;

    CapacityRefreshTimer(CapacityRefresh refresh, ProviderFleet provider) {
        this.refresh = refresh;
        this.provider = provider;
    }

    @Override
    public void start() {
        provider.limitRefreshInterval().ifPresent(this::start);
    }

    private void start(Duration interval) {
        timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "spillover-capacity-refresh");
            thread.setDaemon(true);
            return thread;
        });
        timer.scheduleWithFixedDelay(this::refresh, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void refresh() {
        try {
            var result = refresh.refresh();
            if (!result.regionsFailed().isEmpty()) {
                log.warn("Service quotas not read in {}; their offerings stay as they were", result.regionsFailed());
            }
        } catch (RuntimeException e) {
            log.warn("Capacity not refreshed from the account's limits; it stays as it was: {}", e.getMessage());
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
