package io.spillover.jobs;

import io.spillover.catalog.Catalog;
import io.spillover.placement.Placement;
import io.spillover.placement.SubmissionRules;
import io.spillover.providers.CapacityProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The placement core's objects for jobs and the scheduler, made once from the catalog, the limits and the active provider. */
@Configuration(proxyBeanMethods = false)
class PlacementConfiguration {

    /** The configured pending-time range, narrowed to what the provider accepts (SPEC §3.2.3). */
    @Bean
    SubmissionRules submissionRules(Catalog catalog, JobLimits limits, CapacityProvider provider) {
        long min = limits.minPendingTime().toSeconds();
        long max = limits.maxPendingTime().toSeconds();
        var narrowed = provider.pendingTimeRange();
        if (narrowed.isPresent()) {
            min = Math.max(min, narrowed.get().min().toSeconds());
            max = Math.min(max, narrowed.get().max().toSeconds());
            if (max < min) {
                throw new IllegalStateException("spillover.jobs pending-time range " + limits.minPendingTime() + " to "
                        + limits.maxPendingTime() + " does not meet the " + provider.name() + " provider's "
                        + narrowed.get().min() + " to " + narrowed.get().max());
            }
        }
        return new SubmissionRules(catalog, new SubmissionRules.Limits(min, max, provider.defaultRegion(),
                provider.regions()));
    }

    @Bean
    Placement placement(Catalog catalog) {
        return new Placement(catalog);
    }
}
