package io.spillover.providers.sagemaker;

import io.spillover.capacity.AccountLimit;
import io.spillover.capacity.AccountLimitLearned;
import io.spillover.capacity.FleetOffering;
import io.spillover.capacity.LimitReading;
import io.spillover.catalog.JobKind;
import io.spillover.placement.JobTimeLimit;
import io.spillover.placement.PlanStatus;
import io.spillover.plans.PlanRef;
import io.spillover.plans.ProviderPlan;
import io.spillover.providers.CapacityProvider;
import io.spillover.providers.JobSettings;
import io.spillover.providers.LaunchOutcome;
import io.spillover.providers.LaunchRequest;
import io.spillover.providers.PendingTimeRange;
import io.spillover.providers.ProviderJobChanged;
import io.spillover.providers.ProviderJobStatus;
import io.spillover.providers.Refusal;
import io.spillover.providers.SageMakerSettings;
import io.spillover.shared.Violation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationEventPublisher;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.sagemaker.model.ResourceInUseException;
import software.amazon.awssdk.services.sagemaker.model.ResourceLimitExceededException;

/**
 * Runs attempts as SageMaker training and processing jobs named by the attempt, so a launch whose answer
 * was lost is found again and never made twice. Capacity refusals, at launch or after, become fall-through.
 */
final class SageMakerProvider implements CapacityProvider {

    /** SageMaker's accepted range of a maximum pending time (SPEC §3.2.3). */
    static final PendingTimeRange PENDING_TIME = new PendingTimeRange(Duration.ofSeconds(7_200),
            JobTimeLimit.MAX);
    private static final Logger log = LoggerFactory.getLogger(SageMakerProvider.class);
    /** ResourceLimitExceeded: "The account-level service limit 'ml.p5.48xlarge for training job usage' is 2 Instances". */
    private static final Pattern STATED_LIMIT = Pattern.compile(
            "'(ml\\.[a-z0-9.-]+) for (training|processing) job usage' is (\\d+) Instances");

    private final SageMakerProperties properties;
    private final SageMakerApi api;
    private final JobWatch watch;
    private final ApplicationEventPublisher events;
    private final List<FleetOffering> fleet;
    private final TeamSageMakerService teams;
    private final SageMakerQuotaProperties quotaProperties;
    private final ServiceQuotas serviceQuotas;
    private final OutsideUse outsideUse;
    private final SageMakerHealth health;

    SageMakerProvider(SageMakerProperties properties, SageMakerApi api, JobWatch watch,
                      ApplicationEventPublisher events, TeamSageMakerService teams,
                      SageMakerQuotaProperties quotaProperties, ServiceQuotas serviceQuotas, SageMakerHealth health) {
        this.properties = properties;
        this.health = health;
        this.teams = teams;
        this.quotaProperties = quotaProperties;
        this.serviceQuotas = serviceQuotas;
        this.outsideUse = new OutsideUse(api, quotaProperties.outsideUseDescribes());
        this.api = api;
        this.watch = watch;
        this.events = events;
        this.fleet = properties.fleet().stream()
                .map(q -> new FleetOffering(properties.regionOf(q), q.instanceType(), q.onDemandCapacity()))
                .toList();
    }

    @Override
    public String name() {
        return "sagemaker";
    }

    @Override
    public String defaultRegion() {
        return properties.region();
    }

    @Override
    public Set<String> regions() {
        return properties.regionSet();
    }

    @Override
    public List<FleetOffering> fleet() {
        return fleet;
    }

    /** The job's own settings over its team's over the platform's: read once per team and batch. */
    @Override
    public JobSettings jobSettings(String team) {
        return new TeamJobSettings(team, teams.read(team), properties, teams.roles());
    }

    /**
     * A preemptible job resumes as SageMaker's managed spot training does: a new training job with the same
     * {@code CheckpointConfig.S3Uri}, whose contents SageMaker copies into the instances before the job starts. Every
     * attempt is created with the job's pass-through fields, so each carries the same one. Processing jobs have none.
     */
    @Override
    public List<Violation> checkpointProblems(JobKind kind, SageMakerSettings settled) {
        if (kind == JobKind.PROCESSING) {
            return List.of(new Violation("preemptible", "SageMaker processing jobs have no checkpoint to resume from;"
                    + " only a training job can be preemptible"));
        }
        Object config = settled == null ? null : settled.passThrough().get("CheckpointConfig");
        Object uri = config instanceof Map<?, ?> fields ? fields.get("S3Uri") : null;
        if (uri instanceof String s3 && s3.matches(SageMakerSettings.S3_URI)) {
            return List.of();
        }
        return List.of(new Violation("sagemaker.passThrough.CheckpointConfig.S3Uri", (uri == null ? "must be set"
                : "must be an s3:// URI") + ": a preemptible training job resumes from the checkpoint SageMaker copies"
                + " from there into each of its attempts"));
    }

    @Override
    public Optional<Duration> limitRefreshInterval() {
        return Optional.of(quotaProperties.quotaRefreshInterval());
    }

    /**
     * Per served region: the applied quotas of every type (ListServiceQuotas), less what the account's training
     * jobs outside Spillover hold. A region whose quotas cannot be read is reported, not thrown; outside use that
     * cannot be read counts as none (a launch past the real limit is refused, and falls through, as before).
     */
    @Override
    public LimitReading readLimits() {
        var read = new ArrayList<String>();
        var failed = new LinkedHashMap<String, String>();
        var limits = new ArrayList<AccountLimit>();
        int uncounted = 0;
        for (String region : properties.regions()) {
            Map<String, ServiceQuotas.TypeQuotas> quotas;
            try {
                quotas = serviceQuotas.read(region);
            } catch (RuntimeException e) {
                String why = "Service Quotas could not be read: " + e.getMessage();
                failed.put(region, why);
                health.quotasNotRead(region, why);
                continue;
            }
            health.quotasRead(region);
            OutsideUse.Reading outside;
            try {
                outside = outsideUse.read(region);
            } catch (RuntimeException e) {
                log.warn("Could not read the use of jobs outside Spillover in {}; counted as none: {}", region,
                        e.getMessage());
                outside = new OutsideUse.Reading(Map.of(), 0);
            }
            read.add(region);
            for (var quota : quotas.entrySet()) {
                limits.add(new AccountLimit(region, quota.getKey(), quota.getValue().training(),
                        quota.getValue().processing(), outside.instances().getOrDefault(quota.getKey(), 0)));
            }
            uncounted += outside.uncounted();
        }
        return new LimitReading(read, failed, limits, uncounted);
    }

    @Override
    public Optional<PendingTimeRange> pendingTimeRange() {
        return Optional.of(PENDING_TIME);
    }

    @Override
    public boolean plansFollowTheirWindow() {
        return false;
    }

    @Override
    public Optional<Duration> planSyncInterval() {
        return Optional.of(properties.planSyncInterval());
    }

    @Override
    public LaunchOutcome launch(LaunchRequest request) {
        String name = request.providerJobName();
        if (watch.get(name).isPresent()) {
            return new LaunchOutcome.Launched();
        }
        if (request.container() == null || request.container().image() == null) {
            return new LaunchOutcome.Failed("container.image is required to run on SageMaker");
        }
        if ((request.sagemaker() == null || request.sagemaker().roleArn() == null) && properties.roleArn() == null) {
            // Only a job stored before settings were settled at submission: the others were refused then.
            return new LaunchOutcome.Failed("sagemaker.roleArn: no execution role to run as");
        }
        if (request.trainingPlan() != null && request.trainingPlanArn() == null) {
            return new LaunchOutcome.Failed("training plan " + request.trainingPlan() + " has no ARN registered");
        }
        try {
            api.create(request);
            watch.follow(name, request.kind(), request.region());
            return new LaunchOutcome.Launched();
        } catch (ResourceInUseException e) {
            return lookUp(request, e); // the name exists: an earlier try of this launch got through
        } catch (ResourceLimitExceededException e) {
            learnLimit(request, message(e));
            return new LaunchOutcome.InsufficientCapacity(message(e), Refusal.QUOTA_EXCEEDED);
        } catch (AwsServiceException e) {
            if (capacityError(e)) {
                return new LaunchOutcome.InsufficientCapacity(message(e), Refusal.INSUFFICIENT_CAPACITY);
            }
            if (e.isThrottlingException()) {
                throw e; // nothing was made; the launcher tries again after a backoff
            }
            if (e.statusCode() >= 500) {
                return lookUp(request, e);
            }
            return new LaunchOutcome.Failed(message(e));
        } catch (SdkClientException e) {
            return lookUp(request, e); // a timeout or reset: the job may have been made
        }
    }

    /** SageMaker names the limit it refused past; the offering takes it (capacity keeps a declared one). */
    private void learnLimit(LaunchRequest request, String message) {
        Matcher limit = STATED_LIMIT.matcher(message == null ? "" : message);
        if (limit.find() && limit.group(1).equals(request.instanceType())) {
            events.publishEvent(new AccountLimitLearned(request.region(), request.instanceType(),
                    limit.group(2).equals("training") ? JobKind.TRAINING : JobKind.PROCESSING,
                    Integer.parseInt(limit.group(3))));
        }
    }

    /** After a create whose outcome is unknown: adopt the job if it exists, else let the launcher try again. */
    private LaunchOutcome lookUp(LaunchRequest request, RuntimeException cause) {
        String name = request.providerJobName();
        Optional<Observation> seen = api.describe(request.kind(), request.region(), name);
        if (seen.isEmpty()) {
            if (cause instanceof ResourceInUseException) {
                return new LaunchOutcome.Failed(message((AwsServiceException) cause));
            }
            throw cause;
        }
        log.info("Found {} on SageMaker after a create whose answer was lost; not creating it again", name);
        watch.observe(name, watch.follow(name, request.kind(), request.region()), seen.get());
        return new LaunchOutcome.Launched();
    }

    @Override
    public void stop(String providerJobName) {
        Optional<JobWatch.Followed> followed = watch.get(providerJobName);
        JobKind kind;
        String region;
        if (followed.isPresent()) {
            kind = followed.get().kind;
            region = followed.get().region;
        } else {
            Optional<SageMakerApi.Found> found = api.find(providerJobName, regionsDefaultFirst());
            if (found.isEmpty()) {
                events.publishEvent(new ProviderJobChanged(providerJobName, ProviderJobStatus.STOPPED,
                        "SageMaker has no job " + providerJobName + "; nothing to stop"));
                return;
            }
            kind = found.get().kind();
            region = found.get().region();
            watch.follow(providerJobName, kind, region);
        }
        try {
            api.stop(kind, region, providerJobName);
        } catch (AwsServiceException e) {
            if (e.statusCode() >= 500 || e.isThrottlingException()) {
                throw e;
            }
            // Already ended or stopping: its end arrives with the next poll.
            log.info("SageMaker did not stop {}: {}", providerJobName, message(e));
        }
    }

    /** Answered from what the watch last saw when it follows the job; else SageMaker is asked, and the job followed. */
    @Override
    public Optional<ProviderJobStatus> describe(String providerJobName) {
        Optional<JobWatch.Followed> followed = watch.get(providerJobName);
        if (followed.isPresent()) {
            Observation last = followed.get().last;
            return Optional.of(last == null ? ProviderJobStatus.STARTING : last.status());
        }
        Optional<SageMakerApi.Found> found = api.find(providerJobName, regionsDefaultFirst());
        found.ifPresent(f -> watch.observe(providerJobName, watch.follow(providerJobName, f.kind(), f.region()),
                f.observation()));
        return found.map(f -> f.observation().status());
    }

    @Override
    public Optional<String> logs(String providerJobName) {
        String region = watch.get(providerJobName).map(f -> f.region).orElse(properties.region());
        String group = watch.get(providerJobName).map(f -> f.kind).orElse(JobKind.TRAINING) == JobKind.TRAINING
                ? "/aws/sagemaker/TrainingJobs" : "/aws/sagemaker/ProcessingJobs";
        return Optional.of("The output is in CloudWatch Logs, log group " + group + ", streams " + providerJobName
                + "/*, region " + region + ": https://console.aws.amazon.com/cloudwatch/home?region=" + region
                + "#logsV2:log-groups/log-group/" + group.replace("/", "$252F") + "$3FlogStreamNameFilter$3D"
                + providerJobName);
    }

    /** ListTrainingPlans once per region; DescribeTrainingPlan only for plans the list did not show. */
    @Override
    public Map<String, ProviderPlan> describePlans(List<PlanRef> plans) {
        var byRegion = new LinkedHashMap<String, List<PlanRef>>();
        plans.forEach(p -> byRegion.computeIfAbsent(p.region(), r -> new ArrayList<>()).add(p));
        var seen = new HashMap<String, ProviderPlan>();
        byRegion.forEach((region, refs) -> {
            api.trainingPlans(region).forEach(s -> seen.put(s.trainingPlanArn(), new ProviderPlan(s.trainingPlanArn(),
                    planStatus(s.statusAsString()), s.statusMessage(), count(s.totalInstanceCount()),
                    count(s.availableInstanceCount()), count(s.inUseInstanceCount()), s.startTime(), s.endTime())));
            for (PlanRef ref : refs) {
                if (!seen.containsKey(ref.arn())) {
                    String awsName = ref.arn().substring(ref.arn().lastIndexOf('/') + 1);
                    api.trainingPlan(region, awsName).ifPresent(d -> seen.put(ref.arn(), new ProviderPlan(
                            d.trainingPlanArn(), planStatus(d.statusAsString()), d.statusMessage(),
                            count(d.totalInstanceCount()), count(d.availableInstanceCount()),
                            count(d.inUseInstanceCount()), d.startTime(), d.endTime())));
                }
            }
        });
        var asked = new HashMap<String, ProviderPlan>();
        plans.forEach(p -> Optional.ofNullable(seen.get(p.arn())).ifPresent(found -> asked.put(p.arn(), found)));
        return asked;
    }

    /** The poller's tick; failures leave jobs as they were (the health indicator shows them). */
    void poll() {
        try {
            watch.poll();
        } catch (RuntimeException e) {
            log.warn("Could not read job status from SageMaker or record it; jobs stay as they were: {}",
                    e.getMessage());
        }
    }

    private List<String> regionsDefaultFirst() {
        var regions = new ArrayList<String>();
        regions.add(properties.region());
        properties.regions().stream().filter(r -> !r.equals(properties.region())).forEach(regions::add);
        return regions;
    }

    private static PlanStatus planStatus(String aws) {
        try {
            return PlanStatus.valueOf(aws.toUpperCase(Locale.ROOT));
        } catch (RuntimeException e) {
            return PlanStatus.PENDING; // a status this version does not know offers no capacity
        }
    }

    private static int count(Integer count) {
        return count == null ? 0 : count;
    }

    private static boolean capacityError(AwsServiceException e) {
        String code = e.awsErrorDetails() == null ? null : e.awsErrorDetails().errorCode();
        return (code != null && code.contains("Capacity")) || Observation.capacityError(message(e));
    }

    private static String message(AwsServiceException e) {
        if (e.awsErrorDetails() == null) {
            return e.getMessage();
        }
        return e.awsErrorDetails().errorCode() + ": " + e.awsErrorDetails().errorMessage();
    }
}
