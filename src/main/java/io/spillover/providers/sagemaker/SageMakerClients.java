package io.spillover.providers.sagemaker;

import java.util.LinkedHashMap;
import java.util.Map;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.awscore.AwsRequestOverrideConfiguration;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.retries.api.BackoffStrategy;
import software.amazon.awssdk.retries.api.RetryStrategy;
import software.amazon.awssdk.services.sagemaker.SageMakerClient;
import software.amazon.awssdk.services.servicequotas.ServiceQuotasClient;

/**
 * One SDK client per served region for SageMaker, and one for Service Quotas, sharing one HTTP connection pool and the default credential chain. Calls
 * are retried by the SDK (throttling, 5xx, timeouts, resets) with exponential backoff and full jitter; the
 * circuit breaker is off, because a long outage should be ridden out, not given up on.
 */
final class SageMakerClients implements AutoCloseable {

    private final SdkHttpClient http;
    private final Map<String, SageMakerClient> byRegion = new LinkedHashMap<>();
    private final Map<String, ServiceQuotasClient> quotasByRegion = new LinkedHashMap<>();
    private final AwsRequestOverrideConfiguration noRetries = AwsRequestOverrideConfiguration.builder()
            .addPlugin(config -> config.overrideConfiguration(c -> c.retryStrategy(AwsRetryStrategy.doNotRetry())))
            .build();

    SageMakerClients(SageMakerProperties properties, SageMakerQuotaProperties quotaProperties) {
        this.http = ApacheHttpClient.builder()
                .connectionTimeout(properties.callTimeout())
                .socketTimeout(properties.callTimeout())
                .build();
        var retry = properties.retry();
        RetryStrategy retries = AwsRetryStrategy.standardRetryStrategy().toBuilder()
                .maxAttempts(retry.maxAttempts())
                .backoffStrategy(BackoffStrategy.exponentialDelay(retry.baseDelay(), retry.maxDelay()))
                .throttlingBackoffStrategy(BackoffStrategy.exponentialDelay(retry.baseDelay(), retry.maxDelay()))
                .circuitBreakerEnabled(false)
                .build();
        for (String region : properties.regions()) {
            var builder = SageMakerClient.builder()
                    .region(Region.of(region))
                    .httpClient(http)
                    .credentialsProvider(DefaultCredentialsProvider.builder().build())
                    .overrideConfiguration(ClientOverrideConfiguration.builder()
                            .retryStrategy(retries)
                            .apiCallAttemptTimeout(properties.callTimeout())
                            .addExecutionInterceptor(new PassThroughFields())
                            .build());
            if (properties.endpointOverride() != null) {
                builder.endpointOverride(properties.endpointOverride());
            }
            byRegion.put(region, builder.build());
            var quotas = ServiceQuotasClient.builder()
                    .region(Region.of(region))
                    .httpClient(http)
                    .credentialsProvider(DefaultCredentialsProvider.builder().build())
                    .overrideConfiguration(ClientOverrideConfiguration.builder()
                            .retryStrategy(retries)
                            .apiCallAttemptTimeout(properties.callTimeout())
                            .build());
            if (quotaProperties.quotaEndpointOverride() != null) {
                quotas.endpointOverride(quotaProperties.quotaEndpointOverride());
            }
            quotasByRegion.put(region, quotas.build());
        }
    }

    ServiceQuotasClient quotasIn(String region) {
        ServiceQuotasClient client = quotasByRegion.get(region);
        if (client == null) {
            throw new IllegalArgumentException("region " + region + " is not served by the sagemaker provider");
        }
        return client;
    }

    SageMakerClient in(String region) {
        SageMakerClient client = byRegion.get(region);
        if (client == null) {
            throw new IllegalArgumentException("region " + region + " is not served by the sagemaker provider");
        }
        return client;
    }

    Iterable<String> regions() {
        return byRegion.keySet();
    }

    /**
     * For calls that create: the SDK must not send them again on its own, because a try whose answer was lost
     * may have created the job. The provider looks the job up instead, and only then tries again.
     */
    AwsRequestOverrideConfiguration noRetries() {
        return noRetries;
    }

    /** For a create: {@link #noRetries()}, and the job's pass-through fields for {@link PassThroughFields}. */
    AwsRequestOverrideConfiguration creating(Map<String, Object> passThrough) {
        return passThrough.isEmpty() ? noRetries
                : noRetries.toBuilder().putExecutionAttribute(PassThroughFields.FIELDS, passThrough).build();
    }

    @Override
    public void close() {
        byRegion.values().forEach(SageMakerClient::close);
        quotasByRegion.values().forEach(ServiceQuotasClient::close);
        http.close();
    }
}
