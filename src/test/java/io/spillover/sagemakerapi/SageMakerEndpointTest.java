package io.spillover.sagemakerapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.spillover.support.ApiTest;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.retry.backoff.FixedDelayBackoffStrategy;
import software.amazon.awssdk.core.waiters.WaiterOverrideConfiguration;
import software.amazon.awssdk.core.waiters.WaiterResponse;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sagemaker.SageMakerClient;
import software.amazon.awssdk.services.sagemaker.model.AlgorithmSpecification;
import software.amazon.awssdk.services.sagemaker.model.AppSpecification;
import software.amazon.awssdk.services.sagemaker.model.CreateTrainingJobResponse;
import software.amazon.awssdk.services.sagemaker.model.DescribeProcessingJobResponse;
import software.amazon.awssdk.services.sagemaker.model.DescribeTrainingJobResponse;
import software.amazon.awssdk.services.sagemaker.model.OutputDataConfig;
import software.amazon.awssdk.services.sagemaker.model.ProcessingClusterConfig;
import software.amazon.awssdk.services.sagemaker.model.ProcessingJobStatus;
import software.amazon.awssdk.services.sagemaker.model.ResourceConfig;
import software.amazon.awssdk.services.sagemaker.model.SageMakerException;
import software.amazon.awssdk.services.sagemaker.model.StoppingCondition;
import software.amazon.awssdk.services.sagemaker.model.TrainingInputMode;
import software.amazon.awssdk.services.sagemaker.model.TrainingJobStatus;
import tools.jackson.databind.JsonNode;

/**
 * The SageMaker-compatible endpoint driven by the AWS SDK for Java v2's own {@code SageMakerClient}, pointed at
 * Spillover with an endpoint override and signing with a team token's access key. This SDK's model (2.40) predates
 * instance preference lists, so its jobs name one {@code InstanceType} and fall back through the team's profile
 * named {@code default}.
 */
class SageMakerEndpointTest extends ApiTest {

    static final String ROLE = "arn:aws:iam::111122223333:role/SpilloverJobs";
    static final String IMAGE = "111122223333.dkr.ecr.us-east-1.amazonaws.com/train:1";
    static final String SCARCE = "ml.c5.xlarge";
    static final String SPARE = "ml.c5.2xlarge";

    @Test
    void theJavaSdkRunsATrainingJobToCompletedThroughTheTeamsDefaultProfile() {
        capacity(SCARCE, 0);
        capacity(SPARE, 2);
        String team = team(Map.of(SCARCE, 2, SPARE, 2));
        defaultProfile(team, SCARCE, SPARE);
        var keys = accessKey(team);

        try (SageMakerClient sagemaker = client(keys)) {
            CreateTrainingJobResponse created = sagemaker.createTrainingJob(r -> r.trainingJobName("java-sdk-1")
                    .roleArn(ROLE)
                    .algorithmSpecification(AlgorithmSpecification.builder().trainingImage(IMAGE)
                            .trainingInputMode(TrainingInputMode.FILE)
                            .containerEntrypoint("sh", "-c").containerArguments("sleep 1").build())
                    .outputDataConfig(OutputDataConfig.builder().s3OutputPath("s3://bucket/out").build())
                    .resourceConfig(ResourceConfig.builder().instanceType(SCARCE).instanceCount(1)
                            .volumeSizeInGB(10).build())
                    .stoppingCondition(StoppingCondition.builder().maxRuntimeInSeconds(600).build()));
            WaiterResponse<DescribeTrainingJobResponse> ended = sagemaker.waiter().waitUntilTrainingJobCompletedOrStopped(
                    r -> r.trainingJobName("java-sdk-1"), SageMakerEndpointTest::fast);
            DescribeTrainingJobResponse described = ended.matched().response().orElseThrow();

            assertThat(created.trainingJobArn()).isEqualTo("arn:aws:sagemaker:us-west-2:000000000000:training-job/java-sdk-1");
            assertThat(described.trainingJobStatus()).isEqualTo(TrainingJobStatus.COMPLETED);
            assertThat(described.resourceConfig().instanceType().toString()).isEqualTo(SPARE);
            assertThat(described.resourceConfig().instanceCount()).isEqualTo(1);
            assertThat(described.modelArtifacts().s3ModelArtifacts()).isEqualTo("s3://bucket/out/java-sdk-1/output/model.tar.gz");
            assertThat(described.secondaryStatusTransitions()).extracting(t -> t.statusAsString())
                    .containsSubsequence("Pending", "LaunchingMLInstances", "Training", "Completed");
            assertThat(described.secondaryStatusTransitions()).allSatisfy(t -> assertThat(t.statusMessage()).isNotNull());
            assertThat(described.lastModifiedTime()).isNotNull();
        }
        JsonNode job = describe(team, "java-sdk-1");
        assertThat(job.get("status").asString()).isEqualTo("COMPLETED");
        assertThat(job.get("selection").get("index").asInt()).isEqualTo(1);
        assertThat(job.get("profile").get("name").asString()).isEqualTo("default");
    }

    @Test
    void theJavaSdkRunsAProcessingJobToCompletedThroughTheTeamsDefaultProfile() {
        capacity(SCARCE, 0);
        capacity(SPARE, 2);
        String team = team(Map.of(SCARCE, 2, SPARE, 2));
        defaultProfile(team, SCARCE, SPARE);
        var keys = accessKey(team);

        try (SageMakerClient sagemaker = client(keys)) {
            sagemaker.createProcessingJob(r -> r.processingJobName("java-prep-1").roleArn(ROLE)
                    .appSpecification(AppSpecification.builder().imageUri(IMAGE).containerEntrypoint("sh", "-c",
                            "sleep 1").build())
                    .processingResources(p -> p.clusterConfig(ProcessingClusterConfig.builder().instanceType(SCARCE)
                            .instanceCount(1).volumeSizeInGB(30).build())));
            DescribeProcessingJobResponse described = sagemaker.waiter().waitUntilProcessingJobCompletedOrStopped(
                    r -> r.processingJobName("java-prep-1"), SageMakerEndpointTest::fast).matched().response().orElseThrow();

            assertThat(described.processingJobStatus()).isEqualTo(ProcessingJobStatus.COMPLETED);
            assertThat(described.processingResources().clusterConfig().instanceType().toString()).isEqualTo(SPARE);
            assertThat(described.processingResources().clusterConfig().volumeSizeInGB()).isEqualTo(30);
            assertThat(sagemaker.listProcessingJobs(r -> r.nameContains("JAVA-PREP")).processingJobSummaries())
                    .extracting(s -> s.processingJobName()).containsExactly("java-prep-1");
        }
    }

    @Test
    void anotherTeamsJobIsNotFoundAndAnUnknownSecretIsRefused() {
        capacity(SPARE, 0);
        String owner = team(Map.of(SPARE, 1));
        String other = team(Map.of(SPARE, 1));
        submit(owner, job("owned", entry(SPARE, 1)));
        var stranger = accessKey(other);

        try (SageMakerClient sagemaker = client(stranger)) {
            assertThatThrownBy(() -> sagemaker.describeTrainingJob(r -> r.trainingJobName("owned")))
                    .isInstanceOfSatisfying(SageMakerException.class, e -> {
                        assertThat(e.awsErrorDetails().errorCode()).isEqualTo("ValidationException");
                        assertThat(e.awsErrorDetails().errorMessage()).isEqualTo("Requested resource not found.");
                    });
        }
        try (SageMakerClient wrong = client(new Keys(stranger.id(), "not-the-secret-" + stranger.secret()))) {
            assertThatThrownBy(() -> wrong.listTrainingJobs(r -> r.maxResults(1)))
                    .isInstanceOfSatisfying(SageMakerException.class, e -> assertThat(e.awsErrorDetails().errorCode())
                            .isEqualTo("InvalidSignatureException"));
        }
    }

    record Keys(String id, String secret) {
    }

    Keys accessKey(String team) {
        JsonNode token = expect(api.post("/api/v1/teams/" + team + "/tokens", Map.of("name", "sdk", "role", "MEMBER",
                "accessKey", true)), 201).json();
        return new Keys(token.get("accessKeyId").asString(), token.get("secretAccessKey").asString());
    }

    void defaultProfile(String team, String first, String second) {
        expect(api.put("/api/v1/teams/" + team + "/profiles/default", Map.of("instancePreferences",
                List.of(Map.of("instanceType", first, "instanceCount", 1), Map.of("instanceType", second,
                        "instanceCount", 1)))), 201, 200);
    }

    SageMakerClient client(Keys keys) {
        return SageMakerClient.builder().endpointOverride(URI.create("http://localhost:" + port() + "/sagemaker"))
                .region(Region.US_WEST_2)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(keys.id(),
                        keys.secret())))
                .build();
    }

    static void fast(WaiterOverrideConfiguration.Builder waiter) {
        waiter.maxAttempts(150).backoffStrategy(FixedDelayBackoffStrategy.create(Duration.ofMillis(200)));
    }
}
