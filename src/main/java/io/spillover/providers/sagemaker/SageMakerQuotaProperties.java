package io.spillover.providers.sagemaker;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The {@code spillover.sagemaker.*} settings of capacity read from the account, beside the jobs' settings of
 * {@link SageMakerProperties}: an offering no {@code fleet[i]} entry declares takes its total from the
 * account's applied service quotas, less what its jobs outside Spillover hold.
 *
 * @param quotaRefreshInterval  how often service quotas and outside use are read (also at startup, and on
 *                              {@code POST /api/v1/admin/capacity/refresh})
 * @param quotaEndpointOverride a VPC endpoint (or a test server) for Service Quotas, used for every region
 * @param outsideUseDescribes   the most DescribeTrainingJob calls one refresh makes for jobs outside Spillover
 *                              (each job is described once; the others wait for the next refresh)
 */
@ConfigurationProperties("spillover.sagemaker")
record SageMakerQuotaProperties(Duration quotaRefreshInterval, URI quotaEndpointOverride,
                                Integer outsideUseDescribes) {

    SageMakerQuotaProperties {
        quotaRefreshInterval = quotaRefreshInterval == null ? Duration.ofMinutes(10) : quotaRefreshInterval;
        outsideUseDescribes = outsideUseDescribes == null ? 20 : outsideUseDescribes;
    }

    List<String> problems() {
        var problems = new ArrayList<String>();
        if (quotaRefreshInterval.isNegative() || quotaRefreshInterval.isZero()) {
            problems.add("spillover.sagemaker.quota-refresh-interval must be positive");
        }
        if (quotaEndpointOverride != null && quotaEndpointOverride.getScheme() == null) {
            problems.add("spillover.sagemaker.quota-endpoint-override must be an absolute URI (https://...)");
        }
        if (outsideUseDescribes < 0) {
            problems.add("spillover.sagemaker.outside-use-describes must be 0 or more");
        }
        return problems;
    }
}
