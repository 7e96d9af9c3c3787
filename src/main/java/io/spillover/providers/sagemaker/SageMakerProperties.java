package io.spillover.providers.sagemaker;

import io.spillover.catalog.Catalog;
import io.spillover.providers.SageMakerSettings;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code spillover.sagemaker.*}.
 *
 * @param region           the default region of entries that name none
 * @param regions          the regions served (default: the default region); one SDK client each
 * @param endpointOverride a VPC endpoint or a test server, used for every region
 * @param roleArn          the execution role jobs run with unless they or their team name one (optional)
 * @param outputS3Uri      where training jobs write their artifacts unless they or their team say (optional)
 * @param allowedRoleArns  the roles a team may run as, set for it by an admin or named by its jobs: patterns
 *                         where {@code {team}} is the team's name and {@code *} any run of characters; empty
 *                         lets any role pass
 * @param volumeSizeGb     the ML storage volume per instance unless a job says
 * @param capacityWait     how long a started job may wait for capacity before it counts as refused
 * @param statusInterval   how often live jobs' status is read (one list call per region and kind)
 * @param planSyncInterval how often training plans are brought in step with AWS
 * @param callTimeout      the most one HTTP try may take
 * @param retry            the SDK's retries of throttling, 5xx, timeouts and resets
 * @param fleet            on-demand capacity the platform may use: SageMaker has no capacity API, so this is
 *                         the account's service quota per type (or less), as the platform declares it
 */
@ConfigurationProperties("spillover.sagemaker")
record SageMakerProperties(String region, List<String> regions, URI endpointOverride, String roleArn,
                           String outputS3Uri, List<String> allowedRoleArns, Integer volumeSizeGb,
                           Duration capacityWait, Duration statusInterval, Duration planSyncInterval,
                           Duration callTimeout, Retry retry, List<Quota> fleet) {

    static final Pattern ROLE_ARN = Pattern.compile(SageMakerSettings.ROLE_ARN);
    static final Pattern S3_URI = Pattern.compile(SageMakerSettings.S3_URI);

    SageMakerProperties {
        regions = regions == null || regions.isEmpty() ? (region == null ? List.of() : List.of(region))
                : List.copyOf(regions);
        allowedRoleArns = allowedRoleArns == null ? List.of() : List.copyOf(allowedRoleArns);
        volumeSizeGb = volumeSizeGb == null ? 50 : volumeSizeGb;
        capacityWait = capacityWait == null ? Duration.ofMinutes(10) : capacityWait;
        statusInterval = statusInterval == null ? Duration.ofSeconds(15) : statusInterval;
        planSyncInterval = planSyncInterval == null ? Duration.ofMinutes(5) : planSyncInterval;
        callTimeout = callTimeout == null ? Duration.ofSeconds(30) : callTimeout;
        retry = retry == null ? new Retry(null, null, null) : retry;
        fleet = fleet == null ? List.of() : List.copyOf(fleet);
    }

    /** Exponential backoff with jitter, from {@code baseDelay} up to {@code maxDelay}, {@code maxAttempts} tries. */
    record Retry(Integer maxAttempts, Duration baseDelay, Duration maxDelay) {

        Retry {
            maxAttempts = maxAttempts == null ? 5 : maxAttempts;
            baseDelay = baseDelay == null ? Duration.ofMillis(200) : baseDelay;
            maxDelay = maxDelay == null ? Duration.ofSeconds(20) : maxDelay;
        }
    }

    /** On-demand instances of a type the platform may run in a region (default: the default region). */
    record Quota(String region, String instanceType, Integer onDemandCapacity) {
    }

    Set<String> regionSet() {
        return new LinkedHashSet<>(regions);
    }

    String regionOf(Quota quota) {
        return quota.region() == null ? region : quota.region();
    }

    /** Every problem at once, each naming its property, so a misconfigured start says what to fix. */
    List<String> problems(Catalog catalog) {
        var problems = new ArrayList<String>();
        if (region == null || region.isBlank()) {
            problems.add("spillover.sagemaker.region is required (the default region, e.g. us-east-1)");
        } else if (!regions.contains(region)) {
            problems.add("spillover.sagemaker.regions " + regions + " must include the default region " + region);
        }
        // Both optional: jobs and teams may name their own, and a job that ends up with none is refused at submission.
        if (roleArn != null && !ROLE_ARN.matcher(roleArn).matches()) {
            problems.add("spillover.sagemaker.role-arn must be an IAM role ARN (arn:aws:iam::<account>:role/<name>),"
                    + " not " + roleArn);
        }
        if (outputS3Uri != null && !S3_URI.matcher(outputS3Uri).matches()) {
            problems.add("spillover.sagemaker.output-s3-uri must be an s3:// URI, not " + outputS3Uri);
        }
        for (int i = 0; i < allowedRoleArns.size(); i++) {
            String pattern = allowedRoleArns.get(i);
            if (pattern == null || !RoleAllowList.looksLikeRolePattern(pattern)) {
                problems.add("spillover.sagemaker.allowed-role-arns[" + i + "] must be an IAM role ARN pattern"
                        + " (arn:aws:iam::<account>:role/<name>, with {team} and *), not " + pattern);
            }
        }
        if (volumeSizeGb < 1) {
            problems.add("spillover.sagemaker.volume-size-gb must be 1 or more");
        }
        if (retry.maxAttempts() < 1) {
            problems.add("spillover.sagemaker.retry.max-attempts must be 1 or more");
        }
        if (endpointOverride != null && endpointOverride.getScheme() == null) {
            problems.add("spillover.sagemaker.endpoint-override must be an absolute URI (https://...)");
        }
        for (int i = 0; i < fleet.size(); i++) {
            Quota quota = fleet.get(i);
            String at = "spillover.sagemaker.fleet[" + i + "]";
            if (quota.instanceType() == null || !catalog.contains(quota.instanceType())) {
                problems.add(at + ".instance-type: unknown instance type " + quota.instanceType());
            }
            if (quota.onDemandCapacity() == null || quota.onDemandCapacity() < 0) {
                problems.add(at + ".on-demand-capacity must be 0 or more");
            }
            if (regionOf(quota) != null && !regions.contains(regionOf(quota))) {
                problems.add(at + ".region " + regionOf(quota) + " is not one of spillover.sagemaker.regions " + regions);
            }
        }
        return problems;
    }
}
