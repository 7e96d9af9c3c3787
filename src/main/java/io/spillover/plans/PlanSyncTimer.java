package io.spillover.plans;

import io.spillover.system.RepeatingTask;
import java.time.Duration;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Syncs plans with the provider from startup on, every {@link PlanSource#planSyncInterval()}; nothing when
 * plans follow their window. Every replica syncs (the result is the same, written idempotently).
 */
@Component
class PlanSyncTimer extends RepeatingTask {

    private static final Logger log = LoggerFactory.getLogger(PlanSyncTimer.class);

    private final PlanSync sync;
    private final PlanSource source;

    PlanSyncTimer(PlanSync sync, PlanSource source) {
        super("spillover-plan-sync");
        this.sync = sync;
        this.source = source;
    }

    @Override
    protected Optional<Duration> interval() {
        return source.planSyncInterval();
    }

    @Override
    protected void runOnce() {
        try {
            sync.sync();
        } catch (RuntimeException e) {
            log.warn("Training plans not synced with the provider; they stay as they were: {}", e.getMessage());
        }
    }
}
