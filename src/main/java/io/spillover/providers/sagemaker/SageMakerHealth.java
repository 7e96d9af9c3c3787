package io.spillover.providers.sagemaker;

import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;

/**
 * How the last calls to SageMaker went, for {@code /actuator/health}: DEGRADED while the latest call failed
 * after its retries. Not DOWN: the API and the queue keep working, and jobs on SageMaker stay as they were
 * until it answers again, so a load balancer should not take this instance out. While a served region's service
 * quotas have never been read, it is QUOTAS_UNKNOWN (the service as a whole stays UP: such types are tried) and its
 * details say why, per region.
 */
final class SageMakerHealth implements HealthIndicator {

    static final Status DEGRADED = new Status("DEGRADED", "SageMaker cannot be reached; jobs stay as they were");
    static final Status QUOTAS_UNKNOWN = new Status("QUOTAS_UNKNOWN", "a served region's service quotas were never"
            + " read; its types are tried, and SageMaker's refusals teach their limits");
    /** By region, why its quotas could not be read; a region read once leaves it for good. */
    private final Map<String, String> quotasUnknown = new ConcurrentSkipListMap<>();
    private final Set<String> quotasReadOnce = ConcurrentHashMap.newKeySet();

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

    void quotasRead(String region) {
        quotasReadOnce.add(region);
        quotasUnknown.remove(region);
    }

    void quotasNotRead(String region, String why) {
        if (!quotasReadOnce.contains(region)) {
            quotasUnknown.put(region, why);
        }
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
        if (!quotasUnknown.isEmpty()) {
            details.put("serviceQuotasUnknown", new TreeMap<>(quotasUnknown));
        }
        details.values().removeIf(java.util.Objects::isNull);
        return Health.status(degraded() ? DEGRADED : !quotasUnknown.isEmpty() ? QUOTAS_UNKNOWN : Status.UP)
                .withDetails(details).build();
    }
}
