package io.spillover.providers.sagemaker;

import io.spillover.catalog.Catalog;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The SageMaker provider's parts, made only with {@code spillover.provider=sagemaker}. Its configuration is
 * checked first, every problem at once, so a bad start says what to fix.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "spillover.provider", havingValue = "sagemaker")
class SageMakerConfiguration {

    @Bean(destroyMethod = "close")
    SageMakerClients sageMakerClients(SageMakerProperties properties, SageMakerQuotaProperties quotas,
                                      Catalog catalog) {
        List<String> problems = new ArrayList<>(properties.problems(catalog));
        problems.addAll(quotas.problems());
        if (!problems.isEmpty()) {
            throw new IllegalStateException("The sagemaker provider is misconfigured:\n - "
                    + String.join("\n - ", problems));
        }
        return new SageMakerClients(properties, quotas);
    }

    /** Named so that {@code /actuator/health} shows it as {@code sagemaker}. */
    @Bean
    SageMakerHealth sagemakerHealthIndicator(Clock clock) {
        return new SageMakerHealth(clock);
    }

    @Bean
    SageMakerApi sageMakerApi(SageMakerClients clients, SageMakerProperties properties, SageMakerHealth health) {
        return new SageMakerApi(clients, new SageMakerRequests(properties), health);
    }

    @Bean
    JobWatch sageMakerJobWatch(SageMakerApi api, ApplicationEventPublisher events, Clock clock,
                               SageMakerProperties properties) {
        return new JobWatch(api, events, clock, properties.capacityWait());
    }

    @Bean
    SageMakerProvider sageMakerProvider(SageMakerProperties properties, SageMakerApi api, JobWatch watch,
                                        ApplicationEventPublisher events, TeamSageMakerService teams,
                                        SageMakerQuotaProperties quotas, SageMakerClients clients, Catalog catalog,
                                        SageMakerHealth health) {
        return new SageMakerProvider(properties, api, watch, events, teams, quotas,
                new ServiceQuotas(clients, catalog), health);
    }

    @Bean
    SageMakerTimers sageMakerTimers(SageMakerProvider provider, SageMakerProperties properties) {
        return new SageMakerTimers(provider, properties);
    }
}
