package io.spillover.metrics;

import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;

/** Metrics refresh on Spring's scheduler; nothing else in Spillover uses @Scheduled. */
@Configuration(proxyBeanMethods = false)
@EnableScheduling
class MetricsConfiguration {
}
