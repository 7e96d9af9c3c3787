package io.spillover.system;

import io.spillover.catalog.Catalog;
import io.spillover.catalog.Equivalents;
import io.spillover.placement.Placement;
import io.spillover.placement.SubmissionRules;
import io.spillover.providers.CapacityProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The placement core's objects, made once from the catalog, the limits and the active provider. */
@Configuration(proxyBeanMethods = false)
class PlacementConfiguration {

    @Bean
    SubmissionRules submissionRules(Catalog catalog, JobLimits limits, CapacityProvider provider) {
        return new SubmissionRules(catalog, new SubmissionRules.Limits(limits.minPendingTime().toSeconds(),
                limits.maxPendingTime().toSeconds(), provider.defaultRegion(), provider.regions()));
    }

    @Bean
    Placement placement(Catalog catalog) {
        return new Placement(catalog);
    }

    @Bean
    Equivalents equivalents(Catalog catalog) {
        return new Equivalents(catalog);
    }
}
