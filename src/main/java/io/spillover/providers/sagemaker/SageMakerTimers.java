package io.spillover.providers.sagemaker;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.springframework.context.SmartLifecycle;

/**
 * The provider's clock: the status poll of followed jobs. Only the scheduling replica follows jobs, so only it
 * polls for them. Plans sync on a clock of their own (plans.PlanSyncTimer), every {@code plan-sync-interval}.
 */
final class SageMakerTimers implements SmartLifecycle {

    private final SageMakerProvider provider;
    private final SageMakerProperties properties;
    private ScheduledExecutorService timers;

    SageMakerTimers(SageMakerProvider provider, SageMakerProperties properties) {
        this.provider = provider;
        this.properties = properties;
    }

    @Override
    public void start() {
        timers = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "spillover-sagemaker");
            thread.setDaemon(true);
            return thread;
        });
        long status = properties.statusInterval().toMillis();
        timers.scheduleWithFixedDelay(provider::poll, status, status, TimeUnit.MILLISECONDS);
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
