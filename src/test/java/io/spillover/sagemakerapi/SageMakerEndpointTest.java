package io.spillover.sagemakerapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.spillover.support.Api;
import io.spillover.support.ApiTest;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
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
    static final String G4DN = "ml.g4dn.xlarge";
    static final String G4DN_2X = "ml.g4dn.2xlarge";
    static final String R5 = "ml.r5.large";
    static final String R5_X = "ml.r5.xlarge";
    static final String R5_2X = "ml.r5.2xlarge";
    static final String R5_4X = "ml.r5.4xlarge";

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

    @Test
    void theJavaScriptSdkFallsBackThroughInstancePreferencesAndItsWaiterReturns(@TempDir Path home) throws Exception {
        capacity(G4DN, 0);
        capacity(G4DN_2X, 1);
        capacity(R5, 0);
        capacity(R5_X, 1);
        String team = team(Map.of(G4DN, 1, G4DN_2X, 1, R5, 1, R5_X, 1));
        var keys = accessKey(team);

        JsonNode training = node("training", keys, "js-train-1", G4DN, G4DN_2X, home);
        JsonNode processing = node("processing", keys, "js-prep-1", R5, R5_X, home);

        assertThat(training.get("arn").asString()).isEqualTo(
                "arn:aws:sagemaker:eu-west-1:000000000000:training-job/js-train-1");
        assertThat(training.get("firstStatus").asString()).isEqualTo("InProgress");
        assertThat(training.get("waiter").asString()).isEqualTo("SUCCESS");
        assertThat(training.get("status").asString()).isEqualTo("Completed");
        assertThat(training.get("selectedInstanceType").asString()).isEqualTo(G4DN_2X);
        assertThat(training.get("selectedInstanceCount").asInt()).isEqualTo(1);
        assertThat(training.get("preferences").toString()).isEqualTo("[\"" + G4DN + "\",\"" + G4DN_2X + "\"]");
        assertThat(training.get("transitions").toString()).isEqualTo(
                "[\"Pending\",\"LaunchingMLInstances\",\"Training\",\"Completed\"]");
        assertThat(training.get("creationTimeIsDate").asBoolean()).isTrue();
        assertThat(processing.get("waiter").asString()).isEqualTo("SUCCESS");
        assertThat(processing.get("status").asString()).isEqualTo("Completed");
        assertThat(processing.get("selectedInstanceType").asString()).isEqualTo(R5_X);
        JsonNode job = describe(team, "js-train-1");
        assertThat(job.get("selection").get("index").asInt()).isEqualTo(1);
        assertThat(job.get("maxPendingTimeInSeconds").asLong()).isEqualTo(7200);
    }

    @Test
    void aClientWhoseClockIsTwentyMinutesBehindIsRefusedAndTheJavaScriptSdkCorrectsItself(@TempDir Path home)
            throws Exception {
        String team = team(Map.of(SPARE, 1));
        var keys = accessKey(team);

        JsonNode skewed = node("skewed", keys, "none", SCARCE, SPARE, home);

        assertThat(skewed.has("failed")).as(skewed.toString()).isFalse();
        assertThat(Math.abs(skewed.get("offsetAfter").asLong())).isLessThan(Duration.ofMinutes(2).toMillis());
        assertThat(refusals(keys.id())).containsExactly("InvalidSignatureException");
    }

    @Test
    void theAwsCliRunsATrainingAndAProcessingJobToCompletedAndItsWaitersReturn(@TempDir Path home) throws Exception {
        capacity(R5_2X, 0);
        capacity(R5_4X, 2);
        String team = team(Map.of(R5_2X, 2, R5_4X, 2));
        defaultProfile(team, R5_2X, R5_4X);
        var keys = accessKey(team);
        Map<String, String> env = ClientProcesses.awsEnvironment(keys.id(), keys.secret(), "us-east-1", home);
        String endpoint = "http://localhost:" + port() + "/sagemaker";
        String training = Api.JSON.writeValueAsString(Map.of("TrainingJobName", "cli-train-1", "RoleArn", ROLE,
                "AlgorithmSpecification", Map.of("TrainingImage", IMAGE, "TrainingInputMode", "File",
                        "ContainerEntrypoint", List.of("sh", "-c", "sleep 1")),
                "OutputDataConfig", Map.of("S3OutputPath", "s3://bucket/out"),
                "ResourceConfig", Map.of("InstanceType", R5_2X, "InstanceCount", 1, "VolumeSizeInGB", 10),
                "StoppingCondition", Map.of("MaxRuntimeInSeconds", 600),
                "HyperParameters", Map.of("epochs", "1")));
        String processing = Api.JSON.writeValueAsString(Map.of("ProcessingJobName", "cli-prep-1", "RoleArn", ROLE,
                "AppSpecification", Map.of("ImageUri", IMAGE, "ContainerEntrypoint", List.of("sh", "-c", "sleep 1")),
                "ProcessingResources", Map.of("ClusterConfig", Map.of("InstanceType", R5_2X, "InstanceCount", 1,
                        "VolumeSizeInGB", 20))));

        var created = ClientProcesses.aws(env, "sagemaker", "create-training-job", "--endpoint-url", endpoint,
                "--cli-input-json", training);
        var waited = ClientProcesses.aws(env, "sagemaker", "wait", "training-job-completed-or-stopped",
                "--endpoint-url", endpoint, "--training-job-name", "cli-train-1");
        var described = ClientProcesses.aws(env, "sagemaker", "describe-training-job", "--endpoint-url", endpoint,
                "--training-job-name", "cli-train-1", "--output", "json");
        var createdProcessing = ClientProcesses.aws(env, "sagemaker", "create-processing-job", "--endpoint-url",
                endpoint, "--cli-input-json", processing);
        var waitedProcessing = ClientProcesses.aws(env, "sagemaker", "wait", "processing-job-completed-or-stopped",
                "--endpoint-url", endpoint, "--processing-job-name", "cli-prep-1");
        var missing = ClientProcesses.aws(env, "sagemaker", "describe-training-job", "--endpoint-url", endpoint,
                "--training-job-name", "no-such-job");

        assertThat(created.exit()).as(created.err()).isZero();
        assertThat(created.json().get("TrainingJobArn").asString()).endsWith(":training-job/cli-train-1");
        assertThat(waited.exit()).as(waited.err()).isZero();
        assertThat(described.json().get("TrainingJobStatus").asString()).isEqualTo("Completed");
        assertThat(described.json().get("ResourceConfig").get("InstanceType").asString()).isEqualTo(R5_4X);
        assertThat(described.json().get("HyperParameters").get("epochs").asString()).isEqualTo("1");
        assertThat(createdProcessing.exit()).as(createdProcessing.err()).isZero();
        assertThat(waitedProcessing.exit()).as(waitedProcessing.err()).isZero();
        assertThat(describe(team, "cli-prep-1").get("status").asString()).isEqualTo("COMPLETED");
        assertThat(describe(team, "cli-prep-1").get("selection").get("instanceType").asString()).isEqualTo(R5_4X);
        assertThat(missing.exit()).isNotZero();
        assertThat(missing.err()).contains("ValidationException").contains("Requested resource not found.");
    }

    private JsonNode node(String scenario, Keys keys, String job, String first, String second, Path home)
            throws Exception {
        var env = new HashMap<>(ClientProcesses.awsEnvironment(keys.id(), keys.secret(), "eu-west-1", home));
        env.put("SPILLOVER_ENDPOINT", "http://localhost:" + port() + "/sagemaker");
        env.put("JOB_NAME", job);
        env.put("FIRST_TYPE", first);
        env.put("SECOND_TYPE", second);
        ClientProcesses.Run run = ClientProcesses.node(scenario, env);
        assertThat(run.exit()).as(run.out() + run.err()).isZero();
        return run.json();
    }

    /** The codes of the refused signatures of an access key, from the audit log, oldest first. */
    private List<String> refusals(String accessKeyId) {
        var codes = new ArrayList<String>();
        for (JsonNode entry : expect(api.get("/api/v1/admin/audit?size=200"), 200).json()) {
            if (entry.get("actor").asString().equals("access-key:" + accessKeyId)) {
                codes.add(0, entry.get("outcome").asString());
            }
        }
        return codes;
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
