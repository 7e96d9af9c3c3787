package io.spillover.providers.sagemaker;

import io.spillover.plans.PlanSync;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * The provider's two clocks: the status poll of followed jobs, and the training-plan sync. Every replica
 * syncs plans (the result is the same, written idempotently); only the scheduling one follows jobs, so only
 * it polls for them.
 */
final class SageMakerTimers implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(SageMakerTimers.class);

    private final SageMakerProvider provider;
    private final PlanSync plans;
    private final SageMakerProperties properties;
    private ScheduledExecutorService timers;

    SageMakerTimers(SageMakerProvider provider, PlanSync plans, SageMakerProperties properties) {
        this.provider = provider;
        this.plans = plans;
        this.properties = properties;
    }

    @Override
    public void start() {
        timers = Executors.newScheduledThreadPool(2, r -> {
            Thread thread = new Thread(r, "spillover-sagemaker");
            thread.setDaemon(true);
            return thread;
        });
        long status = properties.statusInterval().toMillis();
        timers.scheduleWithFixedDelay(provider::poll, status, status, TimeUnit.MILLISECONDS);
        timers.scheduleWithFixedDelay(this::syncPlans, 0, properties.planSyncInterval().toMillis(),
                TimeUnit.MILLISECONDS);
    }

    private void syncPlans() {
        try {
            plans.sync();
        } catch (RuntimeException e) {
            log.warn("Training plans not synced with SageMaker; they stay as they were: {}", e.getMessage());
        }
    }

    @Override
    public void stop() {
        if (timers != null) {
            timers.shutdownNow();
        }
    }

    @Override
    public boolean isRunning() {
        return timers != null && !timers.isShutdown();
    }
}
