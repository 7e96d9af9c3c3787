package io.spillover.providers.sagemaker;

import io.spillover.catalog.JobKind;
import io.spillover.providers.LaunchRequest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Supplier;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.services.sagemaker.model.DescribeTrainingPlanResponse;
import software.amazon.awssdk.services.sagemaker.model.ListProcessingJobsRequest;
import software.amazon.awssdk.services.sagemaker.model.ListTrainingJobsRequest;
import software.amazon.awssdk.services.sagemaker.model.ResourceConfig;
import software.amazon.awssdk.services.sagemaker.model.ResourceNotFoundException;
import software.amazon.awssdk.services.sagemaker.model.TrainingJobStatus;
import software.amazon.awssdk.services.sagemaker.model.TrainingJobSummary;
import software.amazon.awssdk.services.sagemaker.model.TrainingPlanSummary;

/**
 * The SageMaker calls the provider makes, each recorded for the health indicator. Calls other than the
 * creates are retried by the SDK; what still fails is thrown, and the caller leaves its jobs as they were.
 */
final class SageMakerApi {

    /** Every provider-side name starts so; listing by it skips jobs that are not Spillover's. */
    static final String NAME_PREFIX = "spl-";

    private final SageMakerClients clients;
    private final SageMakerRequests requests;
    private final SageMakerHealth health;

    SageMakerApi(SageMakerClients clients, SageMakerRequests requests, SageMakerHealth health) {
        this.clients = clients;
        this.requests = requests;
        this.health = health;
    }

    /** A job found on SageMaker: its kind, region and state. */
    record Found(JobKind kind, String region, Observation observation) {
    }

    /** A job SageMaker lists as changed since a time. */
    record Changed(String name, Instant lastModified) {
    }

    /**
     * Creates the attempt's job, without SDK retries (see {@link SageMakerClients#noRetries()}), with the job's
     * pass-through fields merged into the call ({@link PassThroughFields}).
     */
    void create(LaunchRequest request) {
        var client = clients.in(request.region());
        var creating = clients.creating(request.sagemaker() == null ? Map.of() : request.sagemaker().passThrough());
        call("Create " + request.providerJobName(), () -> request.kind() == JobKind.TRAINING
                ? client.createTrainingJob(requests.training(request).toBuilder()
                        .overrideConfiguration(creating).build())
                : client.createProcessingJob(requests.processing(request).toBuilder()
                        .overrideConfiguration(creating).build()));
    }

    Optional<Observation> describe(JobKind kind, String region, String name) {
        var client = clients.in(region);
        try {
            return Optional.of(call("Describe " + name, () -> kind == JobKind.TRAINING
                    ? Observation.of(client.describeTrainingJob(r -> r.trainingJobName(name)))
                    : Observation.of(client.describeProcessingJob(r -> r.processingJobName(name)))));
        } catch (AwsServiceException e) {
            if (notFound(e)) {
                return Optional.empty();
            }
            throw e;
        }
    }

    /** Looks a job up by name alone: training, then processing, in the default region first. */
    Optional<Found> find(String name, List<String> regions) {
        for (String region : regions) {
            for (JobKind kind : JobKind.values()) {
                Optional<Observation> seen = describe(kind, region, name);
                if (seen.isPresent()) {
                    return Optional.of(new Found(kind, region, seen.get()));
                }
            }
        }
        return Optional.empty();
    }

    void stop(JobKind kind, String region, String name) {
        var client = clients.in(region);
        call("Stop " + name, () -> kind == JobKind.TRAINING
                ? client.stopTrainingJob(r -> r.trainingJobName(name))
                : client.stopProcessingJob(r -> r.processingJobName(name)));
    }

    /** Spillover's jobs of a kind modified after {@code since}: one call a page. */
    List<Changed> changedSince(JobKind kind, String region, Instant since) {
        var client = clients.in(region);
        var changed = new ArrayList<Changed>();
        call("List " + kind + " jobs in " + region, () -> {
            if (kind == JobKind.TRAINING) {
                client.listTrainingJobsPaginator(ListTrainingJobsRequest.builder().nameContains(NAME_PREFIX)
                                .lastModifiedTimeAfter(since).maxResults(100).build())
                        .trainingJobSummaries()
                        .forEach(s -> changed.add(new Changed(s.trainingJobName(), s.lastModifiedTime())));
            } else {
                client.listProcessingJobsPaginator(ListProcessingJobsRequest.builder().nameContains(NAME_PREFIX)
                                .lastModifiedTimeAfter(since).maxResults(100).build())
                        .processingJobSummaries()
                        .forEach(s -> changed.add(new Changed(s.processingJobName(), s.lastModifiedTime())));
            }
            return changed;
        });
        return changed;
    }

    /** The names of the region's training jobs in progress that are not Spillover's: one call a page. */
    List<String> outsideTrainingJobsInProgress(String region) {
        var client = clients.in(region);
        return call("List training jobs in progress in " + region, () -> {
            var names = new ArrayList<String>();
            client.listTrainingJobsPaginator(ListTrainingJobsRequest.builder()
                            .statusEquals(TrainingJobStatus.IN_PROGRESS).maxResults(100).build())
                    .trainingJobSummaries().stream().map(TrainingJobSummary::trainingJobName)
                    .filter(name -> !name.startsWith(NAME_PREFIX)).forEach(names::add);
            return names;
        });
    }

    /** By instance type, what a training job's resources hold (one type, or each group of a heterogeneous cluster). */
    Optional<Map<String, Integer>> trainingJobInstances(String region, String name) {
        var client = clients.in(region);
        try {
            return Optional.of(call("Describe " + name, () -> {
                ResourceConfig resources = client.describeTrainingJob(r -> r.trainingJobName(name)).resourceConfig();
                var held = new TreeMap<String, Integer>();
                if (resources != null && resources.instanceType() != null && resources.instanceCount() != null) {
                    held.merge(resources.instanceTypeAsString(), resources.instanceCount(), Integer::sum);
                }
                if (resources != null) {
                    resources.instanceGroups().stream().filter(g -> g.instanceCount() != null)
                            .forEach(g -> held.merge(g.instanceTypeAsString(), g.instanceCount(), Integer::sum));
                }
                return held;
            }));
        } catch (AwsServiceException e) {
            if (notFound(e)) {
                return Optional.empty();
            }
            throw e;
        }
    }

    List<TrainingPlanSummary> trainingPlans(String region) {
        var client = clients.in(region);
        return call("ListTrainingPlans in " + region, () -> {
            var plans = new ArrayList<TrainingPlanSummary>();
            client.listTrainingPlansPaginator(r -> r.maxResults(100)).trainingPlanSummaries().forEach(plans::add);
            return plans;
        });
    }

    Optional<DescribeTrainingPlanResponse> trainingPlan(String region, String name) {
        var client = clients.in(region);
        try {
            return Optional.of(call("DescribeTrainingPlan " + name,
                    () -> client.describeTrainingPlan(r -> r.trainingPlanName(name))));
        } catch (AwsServiceException e) {
            if (notFound(e)) {
                return Optional.empty();
            }
            throw e;
        }
    }

    /**
     * Describe answers a name it does not know with ResourceNotFound, or (as the service does for training
     * jobs) a ValidationException "Requested resource not found".
     */
    static boolean notFound(AwsServiceException e) {
        String message = e.awsErrorDetails() == null ? e.getMessage() : e.awsErrorDetails().errorMessage();
        return e instanceof ResourceNotFoundException || (e.statusCode() == 400 && message != null
                && message.toLowerCase(Locale.ROOT).contains("not found"));
    }

    /** Runs a call; a service's clear answer (a 4xx that is not throttling) counts as SageMaker being reachable. */
    private <T> T call(String what, Supplier<T> call) {
        try {
            T result = call.get();
            health.succeeded();
            return result;
        } catch (AwsServiceException e) {
            if (e.statusCode() >= 500 || e.isThrottlingException()) {
                health.failed(what, e);
            } else {
                health.succeeded();
            }
            throw e;
        } catch (RuntimeException e) {
            health.failed(what, e);
            throw e;
        }
    }
}
