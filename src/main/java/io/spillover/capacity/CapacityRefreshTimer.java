package io.spillover.capacity;

import io.spillover.system.RepeatingTask;
import java.time.Duration;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Reads the account's limits from startup on, every {@link ProviderFleet#limitRefreshInterval()}; nothing under
 * a provider whose offerings are all declared. Every replica reads (the result is the same, written
 * idempotently), as plans sync.
 */
@Component
class CapacityRefreshTimer extends RepeatingTask {

    private static final Logger log = LoggerFactory.getLogger(CapacityRefreshTimer.class);

    private final CapacityRefresh refresh;
    private final ProviderFleet provider;

    CapacityRefreshTimer(CapacityRefresh refresh, ProviderFleet provider) {
        super("spillover-capacity-refresh");
        this.refresh = refresh;
        this.provider = provider;
    }

    @Override
    protected Optional<Duration> interval() {
        return provider.limitRefreshInterval();
    }

    @Override
    protected void runOnce() {
        try {
            var result = refresh.refresh();
            if (!result.regionsFailed().isEmpty()) {
                log.warn("Service quotas not read in {}; their offerings stay as they were", result.regionsFailed());
            }
        } catch (RuntimeException e) {
            log.warn("Capacity not refreshed from the account's limits; it stays as it was: {}", e.getMessage());
        }
    }
}
