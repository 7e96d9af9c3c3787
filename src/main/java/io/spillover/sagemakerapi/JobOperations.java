package io.spillover.sagemakerapi;

import io.spillover.catalog.JobKind;
import io.spillover.jobs.EvaluationView;
import io.spillover.jobs.JobCommands;
import io.spillover.jobs.JobQueries;
import io.spillover.jobs.JobSearch;
import io.spillover.jobs.JobStatus;
import io.spillover.jobs.JobSubmissions;
import io.spillover.jobs.JobView;
import io.spillover.jobs.SageMakerJobRequest;
import io.spillover.jobs.SageMakerSubmissions;
import io.spillover.jobs.TransitionView;
import io.spillover.plans.PlanService;
import io.spillover.plans.TrainingPlanView;
import io.spillover.shared.ConflictException;
import io.spillover.shared.NotFoundException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.Base64;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.stereotype.Component;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * The operations of the SageMaker endpoint, each a call of the jobs module's own services for the caller's team:
 * creates are {@link SageMakerSubmissions#submit} (the mapping {@code jobs:sagemaker} uses), stops and tags are
 * {@link JobCommands}, so they are checked and audited as the REST API's are; reads are {@link JobQueries}.
 */
@Component
class JobOperations {

    /** The operations served, by their X-Amz-Target name. */
    static final Set<String> OPERATIONS = Set.of("CreateTrainingJob", "DescribeTrainingJob", "StopTrainingJob",
            "ListTrainingJobs", "CreateProcessingJob", "DescribeProcessingJob", "StopProcessingJob",
            "ListProcessingJobs", "AddTags", "ListTags");
    private static final Pattern JOB_ARN = Pattern.compile(
            "arn:aws[a-z-]*:sagemaker:[a-z0-9-]*:\\d{12}:(training-job|processing-job)/([a-zA-Z0-9](-*[a-zA-Z0-9]){0,62})");
    private static final Map<String, Set<JobStatus>> STATUSES = Map.of(
            "InProgress", EnumSet.of(JobStatus.PENDING, JobStatus.STARTING, JobStatus.RUNNING),
            "Stopping", EnumSet.of(JobStatus.STOPPING), "Completed", EnumSet.of(JobStatus.COMPLETED),
            "Failed", EnumSet.of(JobStatus.FAILED), "Stopped", EnumSet.of(JobStatus.STOPPED),
            "Deleting", EnumSet.noneOf(JobStatus.class));
    private static final Map<String, JobSearch.Order> ORDERS = Map.of("Name", JobSearch.Order.NAME,
            "CreationTime", JobSearch.Order.CREATED, "Status", JobSearch.Order.STATUS);

    private final SageMakerSubmissions submissions;
    private final JobQueries queries;
    private final JobCommands commands;
    private final PlanService plans;
    private final JsonMapper json;
    private final SageMakerApiProperties properties;
    private final Clock clock;

    JobOperations(SageMakerSubmissions submissions, JobQueries queries, JobCommands commands, PlanService plans,
                  JsonMapper json, SageMakerApiProperties properties, Clock clock) {
        this.submissions = submissions;
        this.queries = queries;
        this.commands = commands;
        this.plans = plans;
        this.json = json;
        this.properties = properties;
        this.clock = clock;
    }

    /** One call for the team, in the region its client signed for; the answer's members, to be written as JSON. */
    Map<String, Object> call(String operation, byte[] body, String team, String region) {
        var arns = new AtomicReference<Map<String, String>>(); // read once, when asked
        var shapes = new JobShapes(region, properties.accountId(),
                name -> arns.updateAndGet(known -> known != null ? known : planArns(team)).get(name));
        return switch (operation) {
            case "CreateTrainingJob" -> create(JobKind.TRAINING, body, team, shapes);
            case "CreateProcessingJob" -> create(JobKind.PROCESSING, body, team, shapes);
            case "DescribeTrainingJob" -> describe(JobKind.TRAINING, Members.of(json, body, "TrainingJobName"), team,
                    shapes);
            case "DescribeProcessingJob" -> describe(JobKind.PROCESSING, Members.of(json, body, "ProcessingJobName"),
                    team, shapes);
            case "StopTrainingJob" -> stop(JobKind.TRAINING, Members.of(json, body, "TrainingJobName"), team);
            case "StopProcessingJob" -> stop(JobKind.PROCESSING, Members.of(json, body, "ProcessingJobName"), team);
            case "ListTrainingJobs" -> list(JobKind.TRAINING, Members.of(json, body, LIST_MEMBERS), team, shapes);
            case "ListProcessingJobs" -> list(JobKind.PROCESSING, Members.of(json, body, LIST_MEMBERS), team, shapes);
            case "AddTags" -> addTags(Members.of(json, body, "ResourceArn", "Tags"), team);
            case "ListTags" -> listTags(Members.of(json, body, "ResourceArn", "NextToken", "MaxResults"), team);
            default -> throw new AwsError("UnknownOperationException", "Spillover serves " + String.join(", ",
                    OPERATIONS.stream().sorted().toList()) + "; not " + operation);
        };
    }

    private Map<String, Object> create(JobKind kind, byte[] body, String team, JobShapes shapes) {
        SageMakerJobRequest request;
        try {
            request = json.readValue(body.length == 0 ? "{}".getBytes(StandardCharsets.UTF_8) : body,
                    SageMakerJobRequest.class);
        } catch (JacksonException e) {
            throw Refusals.unreadable(e);
        }
        if (request == null) {
            throw AwsError.validation("The request body must be a JSON object.");
        }
        String nameMember = kind == JobKind.TRAINING ? "TrainingJobName" : "ProcessingJobName";
        String name = kind == JobKind.TRAINING ? request.trainingJobName() : request.processingJobName();
        String other = kind == JobKind.TRAINING ? request.processingJobName() : request.trainingJobName();
        if (name == null) {
            throw AwsError.validation("1 validation error detected: Value null at '" + nameMember + "' failed to"
                    + " satisfy constraint: Member must not be null");
        }
        if (other != null) {
            throw AwsError.validation("1 validation error detected: '" + (kind == JobKind.TRAINING
                    ? "ProcessingJobName" : "TrainingJobName") + "' is not a member of Create"
                    + (kind == JobKind.TRAINING ? "Training" : "Processing") + "Job");
        }
        JobSubmissions.Submitted submitted = submissions.submit(team, request);
        String arnMember = kind == JobKind.TRAINING ? "TrainingJobArn" : "ProcessingJobArn";
        return Map.of(arnMember, shapes.arn(kind, submitted.job().name()));
    }

    private Map<String, Object> describe(JobKind kind, Members members, String team, JobShapes shapes) {
        JobView job = find(kind, members.name(kind), team);
        Instant lastModified = lastModified(job);
        if (kind == JobKind.PROCESSING) {
            return shapes.processing(job, lastModified);
        }
        EvaluationView latest = job.status() == JobStatus.PENDING
                ? queries.evaluations(team, job.name(), 1).stream().findFirst().orElse(null) : null;
        return shapes.training(job, lastModified, latest);
    }

    private Map<String, Object> stop(JobKind kind, Members members, String team) {
        JobView job = find(kind, members.name(kind), team);
        try {
            commands.stop(team, job.name());
        } catch (ConflictException ended) {
            throw AwsError.validation("The request was rejected because the " + (kind == JobKind.TRAINING
                    ? "training" : "processing") + " job is in status " + JobShapes.trainingStatus(job.status())
                    + ".");
        }
        return Map.of();
    }

    private static final String[] LIST_MEMBERS = {"NextToken", "MaxResults", "CreationTimeAfter",
            "CreationTimeBefore", "LastModifiedTimeAfter", "LastModifiedTimeBefore", "NameContains", "StatusEquals",
            "SortBy", "SortOrder", "WarmPoolStatusEquals", "TrainingPlanArnEquals"};

    private Map<String, Object> list(JobKind kind, Members members, String team, JobShapes shapes) {
        for (String unsupported : List.of("WarmPoolStatusEquals", "TrainingPlanArnEquals")) {
            if (members.has(unsupported)) {
                throw AwsError.validation(unsupported + " is not supported by Spillover: its jobs keep no warm pools,"
                        + " and name plans by their entries");
            }
        }
        int limit = members.integer("MaxResults", 10, 1, 100);
        Page page = Page.of(members.string("NextToken"), clock.instant());
        String status = members.string("StatusEquals");
        if (status != null && !STATUSES.containsKey(status)) {
            throw AwsError.validation("1 validation error detected: Value '" + status + "' at 'statusEquals' failed to"
                    + " satisfy constraint: Member must satisfy enum value set: [InProgress, Completed, Failed,"
                    + " Stopping, Stopped" + (kind == JobKind.TRAINING ? ", Deleting" : "") + "]");
        }
        String sortBy = members.string("SortBy");
        if (sortBy != null && !ORDERS.containsKey(sortBy)) {
            throw AwsError.validation("1 validation error detected: Value '" + sortBy + "' at 'sortBy' failed to"
                    + " satisfy constraint: Member must satisfy enum value set: [Name, CreationTime, Status]");
        }
        String sortOrder = members.string("SortOrder");
        if (sortOrder != null && !sortOrder.equals("Ascending") && !sortOrder.equals("Descending")) {
            throw AwsError.validation("1 validation error detected: Value '" + sortOrder + "' at 'sortOrder' failed"
                    + " to satisfy constraint: Member must satisfy enum value set: [Ascending, Descending]");
        }
        String nameContains = members.string("NameContains");
        var search = new JobSearch(kind, nameContains == null || nameContains.isEmpty() ? null : nameContains,
                status == null ? null : STATUSES.get(status), members.timestamp("CreationTimeAfter"),
                members.timestamp("CreationTimeBefore"), members.timestamp("LastModifiedTimeAfter"),
                members.timestamp("LastModifiedTimeBefore"),
                sortBy == null ? JobSearch.Order.CREATED : ORDERS.get(sortBy), "Ascending".equals(sortOrder),
                page.asOf(), page.offset(), limit);
        JobSearch.Found found = queries.search(team, search);
        var out = new LinkedHashMap<String, Object>();
        out.put(kind == JobKind.TRAINING ? "TrainingJobSummaries" : "ProcessingJobSummaries", found.jobs().stream()
                .map(job -> kind == JobKind.TRAINING
                        ? shapes.trainingSummary(job, found.lastModified().get(job.id()))
                        : shapes.processingSummary(job, found.lastModified().get(job.id())))
                .toList());
        if (found.more()) {
            out.put("NextToken", new Page(page.offset() + limit, page.asOf()).token());
        }
        return out;
    }

    private Map<String, Object> addTags(Members members, String team) {
        Target target = target(members.required("ResourceArn"));
        Map<String, String> tags = members.tags("Tags");
        JobView job = find(target.kind(), target.name(), team);
        commands.tag(team, job.name(), tags);
        return Map.of("Tags", tags.entrySet().stream().map(t -> Map.of("Key", t.getKey(), "Value", t.getValue()))
                .toList());
    }

    private Map<String, Object> listTags(Members members, String team) {
        Target target = target(members.required("ResourceArn"));
        members.integer("MaxResults", 50, 50, Integer.MAX_VALUE);
        return Map.of("Tags", JobShapes.tags(find(target.kind(), target.name(), team)));
    }

    private record Target(JobKind kind, String name) {
    }

    private static Target target(String arn) {
        Matcher match = JOB_ARN.matcher(arn);
        if (!match.matches()) {
            throw AwsError.validation("ResourceArn must be the ARN of a training or processing job"
                    + " (arn:aws:sagemaker:<region>:<account>:training-job/<name>); Spillover keeps tags of jobs only");
        }
        return new Target(match.group(1).equals("training-job") ? JobKind.TRAINING : JobKind.PROCESSING,
                match.group(2));
    }

    /** The team's job of that kind, as SageMaker has another kind's or another team's: not there. */
    private JobView find(JobKind kind, String name, String team) {
        JobView job;
        try {
            job = queries.describe(team, name);
        } catch (NotFoundException e) {
            throw AwsError.notFound();
        }
        if (job.kind() != kind) {
            throw AwsError.notFound();
        }
        return job;
    }

    private static Instant lastModified(JobView job) {
        return job.transitions() == null || job.transitions().isEmpty() ? job.createdAt()
                : job.transitions().stream().map(TransitionView::at).max(Instant::compareTo).orElse(job.createdAt());
    }

    private Map<String, String> planArns(String team) {
        var arns = new HashMap<String, String>();
        plans.visibleTo(team).stream().filter(p -> Objects.nonNull(p.arn()))
                .forEach((TrainingPlanView p) -> arns.put(p.name(), p.arn()));
        return arns;
    }

    /**
     * Where a page starts: an offset into the list as it stood when its first page was read ({@code asOf}), so that
     * jobs created meanwhile do not shift later pages. The token is opaque to clients.
     */
    record Page(int offset, Instant asOf) {

        static Page of(String token, Instant now) {
            if (token == null || token.isEmpty()) {
                return new Page(0, now);
            }
            try {
                String[] parts = new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8).split(":");
                if (parts.length == 3 && parts[0].equals("spl1")) {
                    int offset = Integer.parseInt(parts[1]);
                    long asOf = Long.parseLong(parts[2]);
                    if (offset >= 0) {
                        return new Page(offset, Instant.ofEpochMilli(asOf));
                    }
                }
            } catch (IllegalArgumentException | java.time.DateTimeException e) {
                // answered below
            }
            throw AwsError.validation("The NextToken is not one this endpoint gave: Invalid pagination token");
        }

        String token() {
            return Base64.getUrlEncoder().withoutPadding().encodeToString(("spl1:" + offset + ":"
                    + asOf.toEpochMilli()).getBytes(StandardCharsets.UTF_8));
        }
    }
}
