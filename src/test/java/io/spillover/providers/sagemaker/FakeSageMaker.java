package io.spillover.providers.sagemaker;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import com.github.tomakehurst.wiremock.extension.ResponseDefinitionTransformerV2;
import com.github.tomakehurst.wiremock.http.Fault;
import com.github.tomakehurst.wiremock.http.ResponseDefinition;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * SageMaker's JSON 1.1 protocol on a local WireMock server, with just enough state to play jobs and plans
 * through their lives: {@code POST /} with {@code X-Amz-Target: SageMaker.<Operation>}, bodies and errors
 * shaped as the SageMaker API Reference documents them. Tests move jobs along, inject faults (throttling,
 * 500s, lost answers, capacity errors) and read the requests from WireMock's journal.
 *
 * <p>It answers Service Quotas too, in the same JSON 1.1 protocol ({@code X-Amz-Target:
 * ServiceQuotasV20190624.ListServiceQuotas} and {@code ...ListAWSDefaultServiceQuotas}), from the applied and
 * default quotas a test sets per region (the region is read from the
 * request's SigV4 credential scope, as AWS routes it), a few quotas a page so that paging is exercised.
 *
 * <p>It also keeps the provider's own record, which outlives any Spillover process that called it: every
 * create as it was answered, every change of a job's status in one order, and the most instances of each type
 * in progress at once. With {@link #autoPlay} jobs run through their lives by themselves, so a queue drains
 * without a test moving each job.
 */
public final class FakeSageMaker implements ResponseDefinitionTransformerV2 {

    static final JsonMapper JSON = JsonMapper.builder().build();
    /** A training job's hyperparameter that {@link #autoPlay} reads as its run time in milliseconds. */
    public static final String RUNTIME_MILLIS = "fake-runtime-ms";
    static final String CAPACITY_ERROR = "CapacityError: Unable to provision requested ML compute capacity."
            + " Please retry using a different ML instance type.";

    /** A job as SageMaker keeps it. */
    static final class FakeJob {
        final boolean training;
        final JsonNode request;
        String status = "InProgress";
        String secondary = "Starting";
        String failureReason;
        String message = "Launching requested ML instances";
        Instant created = Instant.now();
        Instant modified = created;

        FakeJob(boolean training, JsonNode request) {
            this.training = training;
            this.request = request;
        }

        String instanceType() {
            return training ? request.path("ResourceConfig").path("InstanceType").asString("")
                    : request.path("ProcessingResources").path("ClusterConfig").path("InstanceType").asString("");
        }

        int instanceCount() {
            return training ? request.path("ResourceConfig").path("InstanceCount").asInt(0)
                    : request.path("ProcessingResources").path("ClusterConfig").path("InstanceCount").asInt(0);
        }
    }

    /** One CreateTrainingJob or CreateProcessingJob call, as answered: {@code created} false for ResourceInUse. */
    public record Create(String name, String instanceType, int instanceCount, Instant at, boolean created) {
    }

    /** A job's status as it changed; {@code seq} orders the changes of all jobs. */
    public record StatusChange(long seq, Instant at, String name, String instanceType, int instanceCount,
                               String status, String secondary) {
    }

    /** The most instances of a type that were InProgress at once, when that was first reached, and on which jobs. */
    public record Peak(String instanceType, int instances, Instant at, List<String> jobs) {
    }

    /** What the next call of an operation gets instead of its answer. */
    private record Injected(int status, String errorType, String message, boolean applyThenDrop) {
    }

    private final WireMockServer server;
    private final Map<String, FakeJob> jobs = new ConcurrentHashMap<>();
    private final Map<String, ObjectNode> plans = new ConcurrentHashMap<>();
    /** By region, the applied quotas by name ("ml.p5.48xlarge for training job usage"). */
    private final Map<String, Map<String, Double>> quotas = new ConcurrentHashMap<>();
    /** By region, AWS's default quotas by name, as ListAWSDefaultServiceQuotas answers them. */
    private final Map<String, Map<String, Double>> defaultQuotas = new ConcurrentHashMap<>();
    /** Quotas per ListServiceQuotas page at most, whatever MaxResults asks. */
    static final int QUOTA_PAGE = 2;
    private final Map<String, Deque<Injected>> injected = new ConcurrentHashMap<>();
    private final Set<String> failWithCapacityError = ConcurrentHashMap.newKeySet();
    private final Set<String> quotasDenied = ConcurrentHashMap.newKeySet();
    private volatile boolean outage;
    private volatile Unreliable unreliable;
    private final AtomicInteger throttled = new AtomicInteger();
    private final AtomicInteger closed = new AtomicInteger();
    private final AtomicInteger delayed = new AtomicInteger();
    private final AtomicInteger droppedCreates = new AtomicInteger();
    /** Guards every change of a job's status and the record of it, so the record has one order. */
    private final Object books = new Object();
    private final List<Create> creates = new ArrayList<>();
    private final List<StatusChange> changes = new ArrayList<>();
    private final Map<String, Peak> peaks = new TreeMap<>();
    private final AtomicReference<Consumer<String>> onNextCreate = new AtomicReference<>();
    private final AtomicReference<Consumer<String>> beforeNextCreate = new AtomicReference<>();
    private final ScheduledExecutorService player = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "fake-sagemaker-player");
        thread.setDaemon(true);
        return thread;
    });
    private volatile Duration startingFor;
    private volatile Duration defaultRuntime;

    public FakeSageMaker() {
        server = new WireMockServer(WireMockConfiguration.options().dynamicPort().extensions(this));
        server.start();
        server.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(200)));
    }

    public String endpoint() {
        return "http://localhost:" + server.port();
    }

    /**
     * Forgets jobs, plans, faults and the record; the account's quotas stay, because Spillover may read them at
     * any moment (its refresh timer runs from startup) and a reading between a reset and a test setting them
     * again would zero its offerings.
     */
    void reset() {
        jobs.clear();
        plans.clear();
        injected.clear();
        failWithCapacityError.clear();
        outage = false;
        server.resetRequests();
        synchronized (books) {
            creates.clear();
            changes.clear();
            peaks.clear();
        }
    }

    public void stop() {
        player.shutdownNow();
        server.stop();
    }

    // --- what tests do -------------------------------------------------------------------------------------

    /** The next call of {@code operation} answers this error (e.g. 400 ThrottlingException, 500 InternalFailure). */
    void failNext(String operation, int status, String errorType, String message) {
        injected.computeIfAbsent(operation, o -> new ArrayDeque<>()).add(new Injected(status, errorType, message, false));
    }

    /** The next call of {@code operation} takes effect, but its answer is lost (the connection is reset). */
    void loseAnswerOfNext(String operation) {
        injected.computeIfAbsent(operation, o -> new ArrayDeque<>()).add(new Injected(0, null, null, true));
    }

    /**
     * Service Quotas refuses every call in the region, as it refuses an identity without {@code servicequotas:*}; for
     * good (a test sets it before the service starts, so the region's quotas are never read).
     */
    void denyQuotas(String region) {
        quotasDenied.add(region);
    }

    /** Training jobs on this type fail as SageMaker fails them when it finds no instances. */
    void noCapacityFor(String instanceType) {
        failWithCapacityError.add(instanceType);
    }

    /**
     * How an unreliable SageMaker answers: each call, drawn from {@code random}, is throttled (400
     * ThrottlingException, nothing done) with probability {@code throttle}; else with probability {@code drop}
     * its work is done and its answer lost, half the time by closing the connection and half the time by
     * answering only after {@code delay} (meant to be longer than the caller's call timeout).
     */
    private record Unreliable(double throttle, double drop, Duration delay, Random random) {
    }

    /**
     * From now on calls are throttled and answers dropped at random, as {@link Unreliable} says, until
     * {@link #reliable}; the draws come from {@code seed}, so the faults' order is the same in every run
     * (which calls meet them depends on timing).
     */
    public void unreliable(double throttle, double drop, Duration delay, long seed) {
        unreliable = new Unreliable(throttle, drop, delay, new Random(seed));
    }

    /** Calls are answered normally again. */
    public void reliable() {
        unreliable = null;
    }

    /** Calls answered 400 ThrottlingException by {@link #unreliable}. */
    public int throttled() {
        return throttled.get();
    }

    /** Calls whose work was done and whose connection was then closed without an answer, by {@link #unreliable}. */
    public int closed() {
        return closed.get();
    }

    /** Calls whose work was done and whose answer came only after the delay, by {@link #unreliable}. */
    public int delayed() {
        return delayed.get();
    }

    /** Of the answers dropped by {@link #unreliable}, those of creates: a job made that its caller did not hear of. */
    public int droppedCreates() {
        return droppedCreates.get();
    }

    /** Every call answers 500 while true. */
    void outage(boolean on) {
        outage = on;
    }

    void move(String name, String status, String secondary, String message) {
        FakeJob job = jobs.get(name);
        synchronized (books) {
            synchronized (job) {
                job.status = status;
                job.secondary = secondary;
                job.message = message;
                if ("Failed".equals(status)) {
                    job.failureReason = message;
                }
                job.modified = later(job.modified);
            }
            recordChange(name, job);
        }
    }

    /**
     * From now on every job created runs by itself: InProgress/Starting for {@code startingFor}, then
     * InProgress/Training for its run time (the {@link #RUNTIME_MILLIS} hyperparameter, else
     * {@code defaultRuntime}), then Completed, unless it was stopped or failed meanwhile.
     */
    public void autoPlay(Duration startingFor, Duration defaultRuntime) {
        this.startingFor = startingFor;
        this.defaultRuntime = defaultRuntime;
    }

    /**
     * The next create is made, then {@code beforeAnswering} runs with the job's name, then the answer is sent:
     * a caller that {@code beforeAnswering} kills dies after its launch took effect and before it heard of it.
     */
    public void onNextCreate(Consumer<String> beforeAnswering) {
        onNextCreate.set(beforeAnswering);
    }

    /**
     * The next create runs {@code instead} with the job's name and is not made (it answers 500): a caller
     * that {@code instead} kills dies after it decided to launch and before the launch reached SageMaker.
     */
    public void beforeNextCreate(Consumer<String> instead) {
        beforeNextCreate.set(instead);
    }

    /** Every create call so far, in the order answered. */
    public List<Create> creates() {
        synchronized (books) {
            return List.copyOf(creates);
        }
    }

    /** Every change of a job's status so far, creation included, in the order they happened. */
    public List<StatusChange> changes() {
        synchronized (books) {
            return List.copyOf(changes);
        }
    }

    /** Per instance type, the most instances that were InProgress at any one moment. */
    public Map<String, Peak> peaks() {
        synchronized (books) {
            return Map.copyOf(peaks);
        }
    }

    public void plan(String arn, String status, int total, int available, Instant start, Instant end) {
        ObjectNode plan = JSON.createObjectNode();
        plan.put("TrainingPlanArn", arn);
        plan.put("TrainingPlanName", arn.substring(arn.lastIndexOf('/') + 1));
        plan.put("Status", status);
        plan.put("StatusMessage", "plan is " + status);
        plan.put("StartTime", seconds(start));
        plan.put("EndTime", seconds(end));
        plan.put("TotalInstanceCount", total);
        plan.put("AvailableInstanceCount", available);
        plan.put("InUseInstanceCount", total - available);
        plan.put("CurrencyCode", "USD");
        plan.put("UpfrontFee", "1000");
        plans.put(arn, plan);
    }

    /**
     * The account's applied quota of a type for a kind ("training", "processing") in a region, as Service Quotas
     * lists it; alongside, the quotas every SageMaker account has that are not per instance type.
     */
    void quota(String region, String instanceType, String kind, double value) {
        Map<String, Double> applied = quotas.computeIfAbsent(region, r -> {
            var noise = new java.util.concurrent.ConcurrentSkipListMap<String, Double>();
            noise.put("Maximum number of training jobs", 10_000.0);
            noise.put("Number of instances across all training jobs", 4.0);
            return noise;
        });
        applied.put(instanceType + " for " + kind + " job usage", value);
    }

    /** AWS's default quota of a type for a kind in a region, which ListServiceQuotas does not list when unapplied. */
    void defaultQuota(String region, String instanceType, String kind, double value) {
        defaultQuotas.computeIfAbsent(region, r -> new java.util.concurrent.ConcurrentSkipListMap<>())
                .put(instanceType + " for " + kind + " job usage", value);
    }

    /** A training job someone started outside Spillover (not named spl-*), in progress on SageMaker. */
    void outsideJob(String name, String instanceType, int instanceCount) {
        ObjectNode request = JSON.createObjectNode();
        request.put("TrainingJobName", name);
        request.put("RoleArn", "arn:aws:iam::111122223333:role/SomeoneElse");
        request.putObject("AlgorithmSpecification").put("TrainingImage", "elsewhere:1").put("TrainingInputMode", "File");
        request.putObject("ResourceConfig").put("InstanceType", instanceType).put("InstanceCount", instanceCount)
                .put("VolumeSizeInGB", 50);
        request.putObject("StoppingCondition").put("MaxRuntimeInSeconds", 86_400);
        FakeJob job = new FakeJob(true, request);
        job.secondary = "Training";
        synchronized (books) {
            jobs.put(name, job);
            recordChange(name, job);
        }
    }

    FakeJob job(String name) {
        return jobs.get(name);
    }

    /** The bodies of every call of {@code operation}, from WireMock's request journal. */
    List<JsonNode> requests(String operation) {
        return server.findAll(postRequestedFor(urlEqualTo("/")).withHeader("X-Amz-Target",
                        equalTo("SageMaker." + operation)))
                .stream().map(r -> JSON.readTree(r.getBodyAsString())).toList();
    }

    /** The calls of {@code operation} about one job name. */
    List<JsonNode> requests(String operation, String field, String name) {
        return requests(operation).stream().filter(b -> b.path(field).asString("").equals(name)).toList();
    }

    // --- the protocol --------------------------------------------------------------------------------------

    @Override
    public String getName() {
        return "fake-sagemaker";
    }

    @Override
    public ResponseDefinition transform(ServeEvent event) {
        String target = event.getRequest().getHeader("X-Amz-Target");
        String operation = target == null ? "" : target.substring(target.indexOf('.') + 1);
        if (outage) {
            return error(500, "InternalFailure", "We encountered an internal error. Please try again.");
        }
        Unreliable faults = unreliable;
        if (faults != null) {
            double draw;
            boolean byReset;
            synchronized (faults.random()) {
                draw = faults.random().nextDouble();
                byReset = faults.random().nextBoolean();
            }
            if (draw < faults.throttle()) {
                throttled.incrementAndGet();
                return error(400, "ThrottlingException", "Rate exceeded");
            }
            if (draw < faults.throttle() + faults.drop()) {
                ResponseDefinition answer = answer(operation, JSON.readTree(event.getRequest().getBodyAsString()));
                (byReset ? closed : delayed).incrementAndGet();
                if (operation.startsWith("Create")) {
                    droppedCreates.incrementAndGet();
                }
                return byReset ? ResponseDefinitionBuilder.like(answer).withFault(Fault.CONNECTION_RESET_BY_PEER).build()
                        : ResponseDefinitionBuilder.like(answer).withFixedDelay((int) faults.delay().toMillis()).build();
            }
        }
        Deque<Injected> queue = injected.get(operation);
        Injected fault = queue == null ? null : queue.poll();
        if (fault != null && !fault.applyThenDrop()) {
            return error(fault.status(), fault.errorType(), fault.message());
        }
        JsonNode body = JSON.readTree(event.getRequest().getBodyAsString());
        ResponseDefinition answer = target != null && target.startsWith("ServiceQuotasV20190624.")
                ? serviceQuotas(operation, body, region(event.getRequest().getHeader("Authorization")))
                : answer(operation, body);
        return fault == null ? answer : ResponseDefinitionBuilder.like(answer).withFault(Fault.CONNECTION_RESET_BY_PEER)
                .build();
    }

    private ResponseDefinition answer(String operation, JsonNode body) {
        return switch (operation) {
            case "CreateTrainingJob" -> create(true, body.get("TrainingJobName").asString(), body);
            case "CreateProcessingJob" -> create(false, body.get("ProcessingJobName").asString(), body);
            case "DescribeTrainingJob" -> describe(true, body.get("TrainingJobName").asString());
            case "DescribeProcessingJob" -> describe(false, body.get("ProcessingJobName").asString());
            case "StopTrainingJob" -> stopJob(body.get("TrainingJobName").asString());
            case "StopProcessingJob" -> stopJob(body.get("ProcessingJobName").asString());
            case "ListTrainingJobs" -> list(true, body);
            case "ListProcessingJobs" -> list(false, body);
            case "ListTrainingPlans" -> {
                ObjectNode out = JSON.createObjectNode();
                ArrayNode summaries = out.putArray("TrainingPlanSummaries");
                plans.values().forEach(summaries::add);
                yield ok(out);
            }
            case "DescribeTrainingPlan" -> plans.values().stream()
                    .filter(p -> p.get("TrainingPlanName").asString().equals(body.get("TrainingPlanName").asString()))
                    .findFirst().map(FakeSageMaker::ok)
                    .orElse(error(400, "ResourceNotFound", "Training plan not found"));
            default -> error(400, "UnknownOperationException", "fake SageMaker does not know " + operation);
        };
    }

    /**
     * Service Quotas' ListServiceQuotas (the region's applied quotas of a service) and ListAWSDefaultServiceQuotas
     * (AWS's defaults), in pages, by quota name.
     */
    private ResponseDefinition serviceQuotas(String operation, JsonNode body, String region) {
        Map<String, Map<String, Double>> source = switch (operation) {
            case "ListServiceQuotas" -> quotas;
            case "ListAWSDefaultServiceQuotas" -> defaultQuotas;
            default -> null;
        };
        if (source == null) {
            return error(400, "UnknownOperationException", "fake Service Quotas does not know " + operation);
        }
        if (quotasDenied.contains(region)) {
            return error(400, "AccessDeniedException", "User: arn:aws:sts::111122223333:assumed-role/Spillover/i-0 is"
                    + " not authorized to perform: servicequotas:" + operation);
        }
        if (!body.path("ServiceCode").asString("").equals("sagemaker")) {
            return error(400, "NoSuchResourceException", "The request failed because the specified service does"
                    + " not exist.");
        }
        var applied = new ArrayList<>(source.getOrDefault(region, Map.of()).entrySet());
        int from = body.has("NextToken") ? Integer.parseInt(body.get("NextToken").asString()) : 0;
        int size = Math.min(QUOTA_PAGE, body.path("MaxResults").asInt(100));
        ObjectNode out = JSON.createObjectNode();
        ArrayNode page = out.putArray("Quotas");
        for (int i = from; i < Math.min(applied.size(), from + size); i++) {
            String name = applied.get(i).getKey();
            String code = "L-" + Integer.toHexString(name.hashCode()).toUpperCase();
            ObjectNode quota = page.addObject();
            quota.put("ServiceCode", "sagemaker");
            quota.put("ServiceName", "Amazon SageMaker");
            quota.put("QuotaArn", "arn:aws:servicequotas:" + region + ":111122223333:sagemaker/" + code);
            quota.put("QuotaCode", code);
            quota.put("QuotaName", name);
            quota.put("Value", applied.get(i).getValue());
            quota.put("Unit", "None");
            quota.put("Adjustable", true);
            quota.put("GlobalQuota", false);
            quota.put("QuotaAppliedAtLevel", "ACCOUNT");
        }
        if (from + size < applied.size()) {
            out.put("NextToken", String.valueOf(from + size));
        }
        return ok(out);
    }

    /** The region of a SigV4 request: {@code Credential=<key>/<date>/<region>/<service>/aws4_request}. */
    private static String region(String authorization) {
        int at = authorization == null ? -1 : authorization.indexOf("Credential=");
        if (at < 0) {
            return "us-east-1";
        }
        String[] scope = authorization.substring(at + "Credential=".length()).split("[/,]");
        return scope.length > 2 ? scope[2] : "us-east-1";
    }

    /** The Service Quotas calls so far, from WireMock's request journal. */
    List<JsonNode> quotaRequests() {
        return server.findAll(postRequestedFor(urlEqualTo("/")).withHeader("X-Amz-Target",
                        equalTo("ServiceQuotasV20190624.ListServiceQuotas")))
                .stream().map(r -> JSON.readTree(r.getBodyAsString())).toList();
    }

    private ResponseDefinition create(boolean training, String name, JsonNode body) {
        Consumer<String> instead = beforeNextCreate.getAndSet(null);
        if (instead != null) {
            instead.accept(name);
            return error(500, "InternalFailure", "We encountered an internal error. Please try again.");
        }
        FakeJob job = new FakeJob(training, body);
        synchronized (books) {
            if (jobs.containsKey(name)) {
                creates.add(new Create(name, job.instanceType(), job.instanceCount(), Instant.now(), false));
                return error(400, "ResourceInUse", (training ? "Training" : "Processing") + " job names must be"
                        + " unique within an AWS account and region, and a job with this name already exists ("
                        + name + ")");
            }
            if (!training) {
                job.secondary = null;
                job.message = null;
            }
            String type = training ? job.instanceType() : "";
            if (failWithCapacityError.contains(type)) {
                job.status = "Failed";
                job.secondary = "Failed";
                job.failureReason = CAPACITY_ERROR;
                job.message = CAPACITY_ERROR;
            }
            jobs.put(name, job);
            creates.add(new Create(name, job.instanceType(), job.instanceCount(), job.created, true));
            recordChange(name, job);
        }
        if (startingFor != null && "InProgress".equals(job.status)) {
            play(name, job);
        }
        Consumer<String> hook = onNextCreate.getAndSet(null);
        if (hook != null) {
            hook.accept(name);
        }
        ObjectNode out = JSON.createObjectNode();
        out.put(training ? "TrainingJobArn" : "ProcessingJobArn", "arn:aws:sagemaker:us-east-1:111122223333:"
                + (training ? "training-job/" : "processing-job/") + name);
        return ok(out);
    }

    private void play(String name, FakeJob job) {
        String millis = job.request.path("HyperParameters").path(RUNTIME_MILLIS).asString("");
        Duration runtime = millis.isEmpty() ? defaultRuntime : Duration.ofMillis(Long.parseLong(millis));
        player.schedule(() -> advance(name, job, "Training", "Training image download completed. Training in"
                + " progress."), startingFor.toMillis(), TimeUnit.MILLISECONDS);
        player.schedule(() -> advance(name, job, "Completed", "Training job completed"),
                startingFor.plus(runtime).toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Moves a job on along its life, unless it ended another way (stopped) meanwhile. */
    private void advance(String name, FakeJob job, String secondary, String message) {
        synchronized (books) {
            if (!"InProgress".equals(job.status)) {
                return;
            }
            boolean done = "Completed".equals(secondary);
            move(name, done ? "Completed" : "InProgress", job.training ? secondary : null, message);
        }
    }

    /** Logs the job's status as it is now and counts what is in progress on its type; the caller holds the books. */
    private void recordChange(String name, FakeJob job) {
        Instant at = Instant.now();
        changes.add(new StatusChange(changes.size() + 1, at, name, job.instanceType(), job.instanceCount(),
                job.status, job.secondary));
        String type = job.instanceType();
        var running = new LinkedHashMap<String, Integer>();
        jobs.forEach((other, fake) -> {
            if (fake.instanceType().equals(type) && "InProgress".equals(fake.status)) {
                running.put(other, fake.instanceCount());
            }
        });
        int instances = running.values().stream().mapToInt(Integer::intValue).sum();
        Peak peak = peaks.get(type);
        if (peak == null || instances > peak.instances()) {
            peaks.put(type, new Peak(type, instances, at, List.copyOf(running.keySet())));
        }
    }

    private ResponseDefinition describe(boolean training, String name) {
        FakeJob job = jobs.get(name);
        if (job == null || job.training != training) {
            return error(400, "ValidationException", "Requested resource not found.");
        }
        ObjectNode out = JSON.createObjectNode();
        synchronized (job) {
            if (training) {
                out.put("TrainingJobName", name);
                out.put("TrainingJobArn", "arn:aws:sagemaker:us-east-1:111122223333:training-job/" + name);
                out.put("TrainingJobStatus", job.status);
                out.put("SecondaryStatus", job.secondary);
                out.set("AlgorithmSpecification", job.request.get("AlgorithmSpecification"));
                out.set("ResourceConfig", job.request.get("ResourceConfig"));
                out.set("StoppingCondition", job.request.get("StoppingCondition"));
                out.putObject("ModelArtifacts").put("S3ModelArtifacts", "s3://bucket/out/" + name);
                ObjectNode transition = out.putArray("SecondaryStatusTransitions").addObject();
                transition.put("Status", job.secondary);
                transition.put("StartTime", seconds(job.modified));
                if (job.message != null) {
                    transition.put("StatusMessage", job.message);
                }
            } else {
                out.put("ProcessingJobName", name);
                out.put("ProcessingJobArn", "arn:aws:sagemaker:us-east-1:111122223333:processing-job/" + name);
                out.put("ProcessingJobStatus", job.status);
                out.set("ProcessingResources", job.request.get("ProcessingResources"));
                out.set("AppSpecification", job.request.get("AppSpecification"));
                if (job.message != null) {
                    out.put("ExitMessage", job.message);
                }
            }
            out.put("RoleArn", job.request.get("RoleArn").asString());
            out.put("CreationTime", seconds(job.created));
            out.put("LastModifiedTime", seconds(job.modified));
            if (job.failureReason != null) {
                out.put("FailureReason", job.failureReason);
            }
        }
        return ok(out);
    }

    private ResponseDefinition stopJob(String name) {
        FakeJob job = jobs.get(name);
        if (job == null) {
            return error(400, "ValidationException", "Requested resource not found.");
        }
        synchronized (books) {
            if (!"InProgress".equals(job.status)) {
                return error(400, "ValidationException", "The job " + name + " has already " + job.status);
            }
            move(name, "Stopped", job.training ? "Stopped" : null, "Stopped by the user");
        }
        return ok(JSON.createObjectNode());
    }

    private ResponseDefinition list(boolean training, JsonNode body) {
        Instant after = body.has("LastModifiedTimeAfter") ? instant(body.get("LastModifiedTimeAfter").asDouble())
                : Instant.EPOCH;
        String contains = body.path("NameContains").asString("");
        String status = body.path("StatusEquals").asString("");
        ObjectNode out = JSON.createObjectNode();
        ArrayNode summaries = out.putArray(training ? "TrainingJobSummaries" : "ProcessingJobSummaries");
        new ArrayList<>(jobs.entrySet()).stream()
                .filter(e -> e.getValue().training == training && e.getKey().contains(contains)
                        && e.getValue().modified.isAfter(after)
                        && (status.isEmpty() || status.equals(e.getValue().status)))
                .forEach(e -> {
                    ObjectNode s = summaries.addObject();
                    s.put(training ? "TrainingJobName" : "ProcessingJobName", e.getKey());
                    s.put(training ? "TrainingJobArn" : "ProcessingJobArn", "arn:aws:sagemaker:us-east-1:111122223333:"
                            + (training ? "training-job/" : "processing-job/") + e.getKey());
                    s.put("CreationTime", seconds(e.getValue().created));
                    s.put("LastModifiedTime", seconds(e.getValue().modified));
                    s.put(training ? "TrainingJobStatus" : "ProcessingJobStatus", e.getValue().status);
                });
        return ok(out);
    }

    private static ResponseDefinition ok(JsonNode body) {
        return aResponse().withStatus(200).withHeader("Content-Type", "application/x-amz-json-1.1")
                .withHeader("x-amzn-RequestId", "fake-" + System.nanoTime()).withBody(JSON.writeValueAsString(body))
                .build();
    }

    private static ResponseDefinition error(int status, String type, String message) {
        ObjectNode body = JSON.createObjectNode();
        body.put("__type", type);
        body.put("message", message);
        return aResponse().withStatus(status).withHeader("Content-Type", "application/x-amz-json-1.1")
                .withHeader("x-amzn-ErrorType", type).withHeader("x-amzn-RequestId", "fake-" + System.nanoTime())
                .withBody(JSON.writeValueAsString(body)).build();
    }

    private static double seconds(Instant at) {
        return at.toEpochMilli() / 1000.0;
    }

    private static Instant instant(double seconds) {
        return Instant.ofEpochMilli((long) (seconds * 1000));
    }

    /** Modification times strictly increase, so a change is never hidden by a clock tick. */
    private static Instant later(Instant before) {
        Instant now = Instant.now();
        return now.isAfter(before) ? now : before.plusMillis(1);
    }
}
