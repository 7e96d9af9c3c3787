package io.spillover.providers.sagemaker;

import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;

/**
 * How the last calls to SageMaker went, for {@code /actuator/health}: DEGRADED while the latest call failed
 * after its retries. Not DOWN: the API and the queue keep working, and jobs on SageMaker stay as they were
 * until it answers again, so a load balancer should not take this instance out.
 */
final class SageMakerHealth implements HealthIndicator {

    static final Status DEGRADED = new Status("DEGRADED", "SageMaker cannot be reached; jobs stay as they were");

    private final Clock clock;
    private volatile Instant lastSuccess;
    private volatile Instant lastFailure;
    private volatile String lastError;
    private volatile int consecutiveFailures;

    SageMakerHealth(Clock clock) {
        this.clock = clock;
    }

    void succeeded() {
        lastSuccess = clock.instant();
        consecutiveFailures = 0;
    }

    void failed(String call, RuntimeException e) {
        lastFailure = clock.instant();
        lastError = call + ": " + e.getMessage();
        consecutiveFailures++;
    }

    boolean degraded() {
        return consecutiveFailures > 0;
    }

    @Override
    public Health health() {
        var details = new LinkedHashMap<String, Object>();
        details.put("lastSuccess", lastSuccess);
        if (lastFailure != null) {
            details.put("lastFailure", lastFailure);
            details.put("lastError", lastError);
            details.put("consecutiveFailures", consecutiveFailures);
        }
        details.values().removeIf(java.util.Objects::isNull);
        return Health.status(degraded() ? DEGRADED : Status.UP).withDetails(details).build();
    }
}
