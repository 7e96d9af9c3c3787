package io.spillover.scheduling;

import io.micrometer.core.instrument.MeterRegistry;
import io.spillover.jobs.LaunchReady;
import io.spillover.jobs.Launches;
import io.spillover.jobs.StopRequested;
import io.spillover.providers.CapacityProvider;
import io.spillover.providers.LaunchOutcome;
import io.spillover.providers.LaunchRequest;
import io.spillover.providers.ProviderJobRefused;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;
import org.springframework.transaction.event.TransactionalEventListener;

/**
 * Talks to the provider for the scheduler, off the scheduling thread and only after a placement or stop
 * is committed. One thread keeps the calls for an attempt in order (its launch before its stop).
 */
@Component
class Launcher implements DisposableBean {

    static final int ATTEMPTS = 5;
    private static final Logger log = LoggerFactory.getLogger(Launcher.class);

    private final CapacityProvider provider;
    private final Launches launches;
    private final SchedulingProperties properties;
    private final MeterRegistry registry;
    private final ExecutorService calls = Executors.newSingleThreadExecutor(r -> {
        Thread thread = new Thread(r, "spillover-launcher");
        thread.setDaemon(true);
        return thread;
    });

    Launcher(CapacityProvider provider, Launches launches, SchedulingProperties properties,
             MeterRegistry registry) {
        this.registry = registry;
        this.provider = provider;
        this.launches = launches;
        this.properties = properties;
    }

    @TransactionalEventListener(fallbackExecution = true)
    void on(LaunchReady ready) {
        calls.execute(() -> launch(ready.jobId(), ready.attempt(), ready.request()));
    }

    @TransactionalEventListener(fallbackExecution = true)
    void on(StopRequested stop) {
        calls.execute(() -> withRetries("stop " + stop.providerJobName(), () -> {
            if (stop.grace() == null) {
                provider.stop(stop.providerJobName());
            } else {
                provider.stop(stop.providerJobName(), stop.grace());
            }
            return null;
        }));
    }

    /**
     * Launches again an attempt whose outcome was lost; the provider finds it by name if it was made. The job
     * is read when the call is made, so an attempt that ended or was refused meanwhile is left alone.
     */
    void relaunch(UUID jobId, int attempt) {
        calls.execute(() -> launches.currentLaunch(jobId)
                .filter(current -> current.attempt() == attempt)
                .ifPresent(current -> launch(jobId, attempt, current.request())));
    }

    void stopOnProvider(String providerJobName) {
        on(new StopRequested(providerJobName));
    }

    /** The provider took an attempt but could not run it for capacity: the job falls through, as for a refused launch. */
    @EventListener
    void on(ProviderJobRefused refused) {
        launches.refusedByProvider(refused.providerJobName(), refused.message(), refused.refusal(),
                properties.unavailableTtl());
    }

    private void launch(UUID jobId, int attempt, LaunchRequest request) {
        LaunchOutcome outcome = withRetries("launch " + request.providerJobName(), () -> provider.launch(request));
        if (outcome == null) {
            // Unreachable, not refused: the job stays STARTING and every sweep launches it again (the provider finds
            // it by name if a try got through), so an outage neither fails nor duplicates it.
            log.warn("Launch of {} has no answer after {} tries; the next sweep tries again",
                    request.providerJobName(), ATTEMPTS);
            return;
        }
        try {
            if (outcome instanceof LaunchOutcome.Launched && !launches.wantsRunning(jobId, attempt)) {
                // Stopped while the launch was in flight, through an instance whose stop found nothing to stop
                // yet: the job made now would run untracked, so it is stopped too.
                log.info("{} was stopped while it was being launched; stopping it on the provider",
                        request.providerJobName());
                stopOnProvider(request.providerJobName());
            } else if (outcome instanceof LaunchOutcome.InsufficientCapacity refused) {
                launches.launchRefused(jobId, attempt, refused.message(), refused.refusal(),
                        properties.unavailableTtl());
            } else if (outcome instanceof LaunchOutcome.Failed failed) {
                launches.launchFailed(jobId, attempt, failed.message());
            }
        } catch (RuntimeException e) {
            log.error("Could not record the launch outcome of {}; the sweep will reconcile it", jobId, e);
        }
    }

    /** Retries provider errors (throttling, outages) with exponential backoff and jitter; null when all failed. */
    private <T> T withRetries(String what, java.util.function.Supplier<T> call) {
        Duration delay = Duration.ofMillis(200);
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
            try {
                return call.get();
            } catch (RuntimeException e) {
                log.warn("Provider call {} failed (try {} of {}): {}", what, attempt, ATTEMPTS, e.getMessage());
                registry.counter("spillover.provider.errors", "call", what.substring(0, what.indexOf(' '))).increment();
                if (attempt == ATTEMPTS) {
                    break;
                }
                try {
                    Thread.sleep(delay.toMillis() + ThreadLocalRandom.current().nextLong(delay.toMillis()));
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    return null;
                }
                delay = delay.multipliedBy(2);
            }
        }
        return null;
    }

    @Override
    public void destroy() throws InterruptedException {
        calls.shutdown();
        calls.awaitTermination(5, TimeUnit.SECONDS);
    }
}
