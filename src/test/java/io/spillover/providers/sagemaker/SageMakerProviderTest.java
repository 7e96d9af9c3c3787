package io.spillover.providers.sagemaker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.spillover.support.Api;
import io.spillover.support.ApiTest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * Spillover with {@code spillover.provider=sagemaker}, end to end: the same API, scheduler and placement core,
 * and the real AWS SDK talking to a fake SageMaker on a local WireMock server through the endpoint override.
 */
@TestPropertySource(properties = {
        "spillover.provider=sagemaker",
        "spillover.sagemaker.region=us-east-1",
        "spillover.sagemaker.role-arn=arn:aws:iam::111122223333:role/SpilloverJobs",
        "spillover.sagemaker.output-s3-uri=s3://spillover-artifacts/out",
        "spillover.sagemaker.status-interval=100ms",
        "spillover.sagemaker.plan-sync-interval=1h",
        "spillover.sagemaker.retry.base-delay=10ms",
        "spillover.sagemaker.retry.max-delay=50ms",
        "spillover.sagemaker.fleet[0].instance-type=ml.p4d.24xlarge",
        "spillover.sagemaker.fleet[0].on-demand-capacity=8",
        "spillover.sagemaker.fleet[1].instance-type=ml.p5e.48xlarge",
        "spillover.sagemaker.fleet[1].on-demand-capacity=8",
        "spillover.sagemaker.fleet[2].instance-type=ml.p4de.24xlarge",
        "spillover.sagemaker.fleet[2].on-demand-capacity=8",
        "spillover.sagemaker.fleet[3].instance-type=ml.trn1.32xlarge",
        "spillover.sagemaker.fleet[3].on-demand-capacity=8",
        "spillover.sagemaker.fleet[4].instance-type=ml.g6e.48xlarge",
        "spillover.sagemaker.fleet[4].on-demand-capacity=8",
        "spillover.sagemaker.fleet[5].instance-type=ml.g6.12xlarge",
        "spillover.sagemaker.fleet[5].on-demand-capacity=8",
        "spillover.sagemaker.fleet[6].instance-type=ml.g6e.12xlarge",
        "spillover.sagemaker.fleet[6].on-demand-capacity=8",
        "spillover.sagemaker.fleet[7].instance-type=ml.m5.xlarge",
        "spillover.sagemaker.fleet[7].on-demand-capacity=8",
        "spillover.sagemaker.fleet[8].instance-type=ml.g5.12xlarge",
        "spillover.sagemaker.fleet[8].on-demand-capacity=8"})
class SageMakerProviderTest extends ApiTest {

    static final String IMAGE = "111122223333.dkr.ecr.us-east-1.amazonaws.com/train:1";
    static final FakeSageMaker SAGEMAKER;

    static {
        // The default credential chain reads these first: no real credentials are ever looked for.
        System.setProperty("aws.accessKeyId", "AKIAIOSFODNN7EXAMPLE");
        System.setProperty("aws.secretAccessKey", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY");
        // It lives as long as the JVM, as the cached Spring context that calls it may.
        SAGEMAKER = new FakeSageMaker();
    }

    @DynamicPropertySource
    static void endpoint(DynamicPropertyRegistry registry) {
        registry.add("spillover.sagemaker.endpoint-override", SAGEMAKER::endpoint);
        registry.add("spillover.sagemaker.quota-endpoint-override", SAGEMAKER::endpoint);
    }

    @BeforeEach
    void freshSageMaker() {
        SAGEMAKER.reset();
    }

    /** The demo's jobs would be real SageMaker jobs here: it is refused, even with the demo teams, and says why. */
    @Test
    void theDemoIsRefusedForItsJobsWouldBeRealOnes() {
        for (String demoTeam : List.of("vision", "nlp")) {
            expect(api.put("/api/v1/admin/teams/" + demoTeam, Map.of("displayName", demoTeam)), 201, 200);
        }

        JsonNode demo = expect(api.get("/api/v1/admin/demo"), 200).json();
        Api.Response start = api.post("/api/v1/admin/demo", Map.of());

        assertThat(demo.get("available").asBoolean()).isFalse();
        assertThat(demo.get("unavailableBecause").asString()).contains("local provider", "sagemaker");
        assertThat(start.status()).isEqualTo(409);
        assertThat(start.json().get("detail").asString()).contains("the demo cannot start here", "sagemaker");
        assertThat(expect(api.get("/api/v1/admin/demo"), 200).json().get("status").asString()).isEqualTo("IDLE");
    }

    @Test
    void launchesAnOnDemandEntryAsATrainingJobWithTheJobsContainerAndSettings() {
        String team = team(Map.of("ml.p4d.24xlarge", 4));
        var body = sageMakerJob("on-demand", entry("ml.p4d.24xlarge", 2));
        body.put("maxRuntimeInSeconds", 7200);
        body.put("container", Map.of("image", IMAGE, "command", List.of("python3", "train.py", "--epochs", "3"),
                "environment", Map.of("EPOCHS", "3")));
        body.put("sagemaker", Map.of("hyperParameters", Map.of("lr", "0.001"), "volumeSizeInGB", 200));
        String name = providerName(submit(team, body), 1);

        awaitStatus(team, "on-demand", "STARTING");
        JsonNode create = await().until(() -> SAGEMAKER.requests("CreateTrainingJob", "TrainingJobName", name),
                l -> !l.isEmpty()).get(0);

        assertThat(create.toString()).isEqualTo(("{'TrainingJobName':'" + name + "',"
                + "'HyperParameters':{'lr':'0.001'},"
                + "'AlgorithmSpecification':{'TrainingImage':'" + IMAGE + "','TrainingInputMode':'File',"
                + "'ContainerEntrypoint':['python3'],'ContainerArguments':['train.py','--epochs','3']},"
                + "'RoleArn':'arn:aws:iam::111122223333:role/SpilloverJobs',"
                + "'OutputDataConfig':{'S3OutputPath':'s3://spillover-artifacts/out'},"
                + "'ResourceConfig':{'InstanceType':'ml.p4d.24xlarge','InstanceCount':2,'VolumeSizeInGB':200},"
                + "'StoppingCondition':{'MaxRuntimeInSeconds':7200},"
                + "'Tags':[{'Key':'spillover:job','Value':'on-demand'},{'Key':'spillover:team','Value':'" + team + "'}],"
                + "'Environment':{'EPOCHS':'3'}}").replace('\'', '"'));
    }

    @Test
    void followsATrainingJobThroughItsWholeLifeWithSageMakersWordsInTheTransitions() {
        String team = team(Map.of("ml.p4d.24xlarge", 4));
        String name = providerName(submit(team, sageMakerJob("life", entry("ml.p4d.24xlarge", 1))), 1);
        await().until(() -> SAGEMAKER.job(name) != null);

        SAGEMAKER.move(name, "InProgress", "LaunchingMLInstances", "Launching requested ML instances");
        awaitStatus(team, "life", "STARTING");
        SAGEMAKER.move(name, "InProgress", "Downloading", "Downloading input data");
        JsonNode running = awaitStatus(team, "life", "RUNNING");
        assertThat(running.get("statusMessage").asString())
                .isEqualTo("SageMaker InProgress/Downloading: Downloading input data");
        SAGEMAKER.move(name, "InProgress", "Training", "Training image download completed. Training in progress.");
        SAGEMAKER.move(name, "Completed", "Completed", "Training job completed");
        JsonNode completed = awaitStatus(team, "life", "COMPLETED");

        assertThat(completed.get("statusMessage").asString())
                .isEqualTo("SageMaker Completed/Completed: Training job completed");
        assertThat(statuses(completed)).containsExactly("PENDING", "STARTING", "RUNNING", "COMPLETED");
        assertThat(SAGEMAKER.requests("CreateTrainingJob", "TrainingJobName", name)).hasSize(1);
    }

    @Test
    void aFailedJobFailsWithSageMakersReasonAndAStopStopsItOnSageMaker() {
        String team = team(Map.of("ml.p4d.24xlarge", 4));
        String failing = providerName(submit(team, sageMakerJob("failing", entry("ml.p4d.24xlarge", 1))), 1);
        String stopped = providerName(submit(team, sageMakerJob("stopped", entry("ml.p4d.24xlarge", 1))), 1);
        await().until(() -> SAGEMAKER.job(failing) != null && SAGEMAKER.job(stopped) != null);

        SAGEMAKER.move(failing, "Failed", "Failed", "AlgorithmError: exit code 1");
        expect(api.post("/api/v1/teams/" + team + "/jobs/stopped/stop", Map.of()), 200);

        assertThat(awaitStatus(team, "failing", "FAILED").get("statusMessage").asString())
                .isEqualTo("SageMaker Failed/Failed: AlgorithmError: exit code 1");
        assertThat(awaitStatus(team, "stopped", "STOPPED").get("statusReason").asString()).isEqualTo("STOPPED_BY_USER");
        assertThat(SAGEMAKER.requests("StopTrainingJob", "TrainingJobName", stopped)).hasSize(1);
    }

    @Test
    void aCapacityErrorOnEntryZeroFallsThroughToACreateForEntryOne() {
        SAGEMAKER.noCapacityFor("ml.p5e.48xlarge");
        String team = team(Map.of("ml.p5e.48xlarge", 1, "ml.p4de.24xlarge", 1));
        JsonNode job = submit(team, sageMakerJob("spill", entry("ml.p5e.48xlarge", 1), entry("ml.p4de.24xlarge", 1)));
        String second = providerName(job, 2);
        await().until(() -> SAGEMAKER.job(second) != null);
        SAGEMAKER.move(second, "InProgress", "Training", "Training in progress");

        JsonNode running = awaitStatus(team, "spill", "RUNNING");

        assertThat(running.get("selection").get("index").asInt()).isEqualTo(1);
        List<JsonNode> creates = SAGEMAKER.requests("CreateTrainingJob");
        assertThat(creates).extracting(c -> c.get("TrainingJobName").asString())
                .containsExactly(providerName(job, 1), second);
        assertThat(creates).extracting(c -> c.get("ResourceConfig").get("InstanceType").asString())
                .containsExactly("ml.p5e.48xlarge", "ml.p4de.24xlarge");
        List<String> transitions = new ArrayList<>();
        running.get("transitions").forEach(t -> transitions.add(t.get("attempt").asInt() + " " + t.get("to").asString()
                + " " + t.get("reason").asString()));
        assertThat(transitions).containsExactly("0 PENDING SUBMITTED", "1 STARTING PLACED", "1 PENDING LAUNCH_REFUSED",
                "2 STARTING PLACED", "2 RUNNING LAUNCHED");
        assertThat(running.get("transitions").get(2).get("message").asString()).contains(FakeSageMaker.CAPACITY_ERROR);
        assertThat(offering("ml.p5e.48xlarge").get("unavailableCause").asString())
                .isEqualTo("an insufficient-capacity error");
    }

    @Test
    void aServiceQuotaRefusalMarksTheOfferingOverQuotaAndFallsThrough() {
        SAGEMAKER.failNext("CreateTrainingJob", 400, "ResourceLimitExceeded", "The account-level service limit"
                + " 'ml.trn1.32xlarge for training job usage' is 0 Instances");
        String team = team(Map.of("ml.trn1.32xlarge", 1, "ml.g6e.48xlarge", 1));
        JsonNode job = submit(team, sageMakerJob("quota", entry("ml.trn1.32xlarge", 1), entry("ml.g6e.48xlarge", 1)));

        await().until(() -> SAGEMAKER.job(providerName(job, 2)) != null);

        assertThat(describe(team, "quota").get("selection").get("instanceType").asString()).isEqualTo("ml.g6e.48xlarge");
        assertThat(offering("ml.trn1.32xlarge").get("unavailableCause").asString())
                .isEqualTo("the account's service quota for it was reached");
        JsonNode evaluation = evaluations(team, "quota").get(0);
        assertThat(evaluation.get("trigger").asString()).isEqualTo("LAUNCH_REFUSED");
        assertThat(evaluation.get("entries").get(0).get("reason").asString())
                .contains("marked unavailable until").contains("after the account's service quota for it was reached");
    }

    @Test
    void aCreateWhoseAnswerWasLostIsFoundByNameAndNotMadeAgain() {
        SAGEMAKER.loseAnswerOfNext("CreateTrainingJob");
        String team = team(Map.of("ml.g6.12xlarge", 1));
        String name = providerName(submit(team, sageMakerJob("lost", entry("ml.g6.12xlarge", 1))), 1);
        await().until(() -> !SAGEMAKER.requests("DescribeTrainingJob", "TrainingJobName", name).isEmpty());

        SAGEMAKER.move(name, "InProgress", "Training", "Training in progress");

        awaitStatus(team, "lost", "RUNNING");
        assertThat(SAGEMAKER.requests("CreateTrainingJob", "TrainingJobName", name)).hasSize(1);
    }

    @Test
    void throttlingAnd500sAreRetriedAndMakeOneJob() {
        SAGEMAKER.failNext("CreateTrainingJob", 400, "ThrottlingException", "Rate exceeded");
        SAGEMAKER.failNext("CreateTrainingJob", 500, "InternalFailure", "We encountered an internal error.");
        SAGEMAKER.failNext("ListTrainingJobs", 500, "InternalFailure", "We encountered an internal error.");
        SAGEMAKER.failNext("ListTrainingJobs", 400, "ThrottlingException", "Rate exceeded");
        String team = team(Map.of("ml.g6e.12xlarge", 1));
        String name = providerName(submit(team, sageMakerJob("bumpy", entry("ml.g6e.12xlarge", 1))), 1);
        await().until(() -> SAGEMAKER.job(name) != null);
        SAGEMAKER.failNext("DescribeTrainingJob", 500, "InternalFailure", "We encountered an internal error.");

        SAGEMAKER.move(name, "InProgress", "Training", "Training in progress");

        awaitStatus(team, "bumpy", "RUNNING");
        assertThat(SAGEMAKER.requests("CreateTrainingJob", "TrainingJobName", name)).hasSize(3);
        assertThat(SAGEMAKER.job(name)).isNotNull();
    }

    @Test
    void runsProcessingJobsWithTheirClusterConfig() {
        String team = team(Map.of("ml.m5.xlarge", 2));
        var body = sageMakerJob("process", entry("ml.m5.xlarge", 2));
        body.put("kind", "PROCESSING");
        body.put("container", Map.of("image", IMAGE, "command", List.of("python3", "prep.py")));
        String name = providerName(submit(team, body), 1);
        await().until(() -> SAGEMAKER.job(name) != null);

        assertThat(awaitStatus(team, "process", "RUNNING").get("statusMessage").asString())
                .isEqualTo("SageMaker processing InProgress");
        SAGEMAKER.move(name, "Completed", null, "exited with 0");
        awaitStatus(team, "process", "COMPLETED");

        JsonNode create = SAGEMAKER.requests("CreateProcessingJob").get(0);
        assertThat(create.get("ProcessingResources").toString()).isEqualTo(
                "{\"ClusterConfig\":{\"InstanceCount\":2,\"InstanceType\":\"ml.m5.xlarge\",\"VolumeSizeInGB\":50}}");
        assertThat(create.get("AppSpecification").toString()).isEqualTo("{\"ImageUri\":\"" + IMAGE
                + "\",\"ContainerEntrypoint\":[\"python3\",\"prep.py\"]}");
    }

    @Test
    void plansFollowAwsStatusAndCountsAndJobsOnThemNameThePlanArn() {
        String arn = "arn:aws:sagemaker:us-east-1:111122223333:training-plan/h100-" + System.nanoTime();
        String plan = "plan-" + System.nanoTime();
        String team = team(Map.of("ml.p5.48xlarge", 4));
        Instant start = Instant.parse("2020-01-01T00:00:00Z");
        Instant end = Instant.parse("2099-01-01T00:00:00Z");
        expect(api.put("/api/v1/admin/training-plans/" + plan, Map.of("arn", arn, "instanceType", "ml.p5.48xlarge",
                "instanceCount", 2, "startTime", start.toString(), "endTime", end.toString(), "teams", List.of(team))), 201);
        assertThat(plan(team, plan).get("status").asString()).isEqualTo("PENDING");
        SAGEMAKER.plan(arn, "Active", 4, 3, start, end);

        JsonNode synced = expect(api.post("/api/v1/admin/training-plans/sync", Map.of()), 200).json();

        assertThat(synced.get("plans").toString()).contains("\"name\":\"" + plan + "\",\"arn\":\"" + arn
                + "\",\"found\":true,\"status\":\"ACTIVE\",\"total\":3,\"available\":3");
        JsonNode view = plan(team, plan);
        assertThat(view.get("status").asString()).isEqualTo("ACTIVE");
        assertThat(view.get("instanceCount").asInt()).isEqualTo(4);
        assertThat(view.get("available").asInt()).isEqualTo(3);

        var onPlan = Map.<String, Object>of("instanceType", "ml.p5.48xlarge", "instanceCount", 2, "trainingPlan", plan);
        String name = providerName(submit(team, sageMakerJob("reserved", onPlan)), 1);
        JsonNode create = await().until(() -> SAGEMAKER.requests("CreateTrainingJob", "TrainingJobName", name),
                l -> !l.isEmpty()).get(0);
        assertThat(create.get("ResourceConfig").toString()).isEqualTo("{\"InstanceType\":\"ml.p5.48xlarge\","
                + "\"InstanceCount\":2,\"VolumeSizeInGB\":50,\"TrainingPlanArn\":\"" + arn + "\"}");

        SAGEMAKER.plan(arn, "Expired", 4, 0, start, end);
        expect(api.post("/api/v1/admin/training-plans/sync", Map.of()), 200);
        assertThat(plan(team, plan).get("status").asString()).isEqualTo("EXPIRED");
    }

    @Test
    void anOutageLeavesJobsAsTheyWereAndShowsTheProviderDegraded() {
        String team = team(Map.of("ml.g5.12xlarge", 1));
        String name = providerName(submit(team, sageMakerJob("steady", entry("ml.g5.12xlarge", 1))), 1);
        await().until(() -> SAGEMAKER.job(name) != null);
        SAGEMAKER.move(name, "InProgress", "Training", "Training in progress");
        awaitStatus(team, "steady", "RUNNING");

        SAGEMAKER.outage(true);
        await().atMost(Duration.ofSeconds(10)).until(() -> health().equals("DEGRADED"));
        assertThat(describe(team, "steady").get("status").asString()).isEqualTo("RUNNING");
        SAGEMAKER.outage(false);

        await().atMost(Duration.ofSeconds(10)).until(() -> health().equals("UP"));
        assertThat(describe(team, "steady").get("status").asString()).isEqualTo("RUNNING");
    }

    @Test
    void aDeclaredFleetEntryWinsOverTheAccountsQuotaAndTheOthersFollowIt() {
        SAGEMAKER.quota("us-east-1", "ml.p4d.24xlarge", "training", 20);
        SAGEMAKER.quota("us-east-1", "ml.p5.48xlarge", "training", 2);

        expect(api.post("/api/v1/admin/capacity/refresh", Map.of()), 200);

        JsonNode declared = offering("ml.p4d.24xlarge");
        assertThat(declared.get("limitSource").asString()).isEqualTo("declared");
        assertThat(declared.get("total").asInt()).isEqualTo(8);
        assertThat(declared.get("trainingQuota").isNull()).isTrue();
        JsonNode read = offering("ml.p5.48xlarge");
        assertThat(read.get("limitSource").asString()).isEqualTo("quota");
        assertThat(read.get("total").asInt()).isEqualTo(2);
    }

    @Test
    void narrowsTheMaximumPendingTimeToSageMakersRange() {
        String team = team(Map.of("ml.p4d.24xlarge", 1));
        var body = sageMakerJob("impatient", entry("ml.p4d.24xlarge", 1));
        body.put("maxPendingTimeInSeconds", 3600);

        JsonNode problem = expect(api.post("/api/v1/teams/" + team + "/jobs", body), 400).json();

        assertThat(problem.toString()).contains("must be between 7200 and 2419200, not 3600");
    }

    @Test
    void aBoto3CreateTrainingJobBodyWithInstancePreferencesLaunchesWithTheBodysOwnFields() {
        String team = team(Map.of("ml.g6e.48xlarge", 2, "ml.g5.12xlarge", 4));
        JsonNode body = FakeSageMaker.JSON.readTree(("""
                {"TrainingJobName": "llama-ft-sm",
                 "AlgorithmSpecification": {"TrainingImage": "%s", "TrainingInputMode": "FastFile",
                   "ContainerEntrypoint": ["torchrun", "--nproc-per-node", "8"], "ContainerArguments": ["train.py"],
                   "MetricDefinitions": [{"Name": "loss", "Regex": "loss=([0-9.]+)"}]},
                 "RoleArn": "arn:aws:iam::111122223333:role/SpeechTraining",
                 "InputDataConfig": [{"ChannelName": "train", "InputMode": "FastFile", "DataSource": {"S3DataSource": {
                   "S3DataType": "S3Prefix", "S3Uri": "s3://speech-data/train/",
                   "S3DataDistributionType": "FullyReplicated"}}}],
                 "OutputDataConfig": {"S3OutputPath": "s3://speech-models/out", "KmsKeyId": "alias/speech"},
                 "ResourceConfig": {"InstancePreferences": [
                     {"InstanceType": "ml.g6e.48xlarge", "InstanceCount": 2},
                     {"InstanceType": "ml.g5.12xlarge", "InstanceCount": 4}],
                   "VolumeSizeInGB": 500, "VolumeKmsKeyId": "alias/speech-volumes", "KeepAlivePeriodInSeconds": 600},
                 "StoppingCondition": {"MaxRuntimeInSeconds": 86400, "MaxPendingTimeInSeconds": 14400},
                 "HyperParameters": {"epochs": "3", "lr": "0.0001"},
                 "Environment": {"NCCL_DEBUG": "INFO"},
                 "CheckpointConfig": {"S3Uri": "s3://speech-models/checkpoints", "LocalPath": "/opt/ml/checkpoints"},
                 "DebugHookConfig": {"S3OutputPath": "s3://speech-models/debug"},
                 "EnableNetworkIsolation": true,
                 "RetryStrategy": {"MaximumRetryAttempts": 2},
                 "Tags": [{"Key": "project", "Value": "llama"}, {"Key": "spillover:team", "Value": "someone-else"}]}
                """).formatted(IMAGE));

        JsonNode job = expect(api.post("/api/v1/teams/" + team + "/jobs:sagemaker", body), 201).json();
        String name = providerName(job, 1);
        JsonNode create = await().until(() -> SAGEMAKER.requests("CreateTrainingJob", "TrainingJobName", name),
                l -> !l.isEmpty()).get(0);

        // Everything the body said, but what Spillover decides: the job name, the one type and count it selected
        // in place of the list, its own pending time, and its tags beside the body's.
        var expected = (tools.jackson.databind.node.ObjectNode) body.deepCopy();
        expected.put("TrainingJobName", name);
        var resources = (tools.jackson.databind.node.ObjectNode) expected.get("ResourceConfig");
        resources.remove("InstancePreferences");
        resources.put("InstanceType", "ml.g6e.48xlarge");
        resources.put("InstanceCount", 2);
        ((tools.jackson.databind.node.ObjectNode) expected.get("StoppingCondition")).remove("MaxPendingTimeInSeconds");
        var tags = expected.putArray("Tags");
        tags.addObject().put("Key", "project").put("Value", "llama");
        tags.addObject().put("Key", "spillover:job").put("Value", "llama-ft-sm");
        tags.addObject().put("Key", "spillover:team").put("Value", team);
        assertThat(create).isEqualTo(expected);
        assertThat(job.get("maxPendingTimeInSeconds").asLong()).isEqualTo(14400);
    }

    @Test
    void aCreateProcessingJobBodyLaunchesWithItsInputsAndOutputsOnTheSelectedType() {
        String team = team(Map.of("ml.m5.xlarge", 2));
        JsonNode body = FakeSageMaker.JSON.readTree(("""
                {"ProcessingJobName": "tokenize",
                 "AppSpecification": {"ImageUri": "%s", "ContainerEntrypoint": ["python3", "tokenize.py"]},
                 "RoleArn": "arn:aws:iam::111122223333:role/SpeechProcessing",
                 "ProcessingResources": {"ClusterConfig": {"InstanceType": "ml.m5.xlarge", "InstanceCount": 2,
                   "VolumeSizeInGB": 30, "VolumeKmsKeyId": "alias/speech-volumes"}},
                 "StoppingCondition": {"MaxRuntimeInSeconds": 3600},
                 "ProcessingInputs": [{"InputName": "raw", "S3Input": {"S3Uri": "s3://speech-data/raw/",
                   "LocalPath": "/opt/ml/processing/input", "S3DataType": "S3Prefix", "S3InputMode": "File"}}],
                 "ProcessingOutputConfig": {"Outputs": [{"OutputName": "tokens", "S3Output": {
                   "S3Uri": "s3://speech-data/tokens/", "LocalPath": "/opt/ml/processing/output",
                   "S3UploadMode": "EndOfJob"}}]},
                 "NetworkConfig": {"EnableNetworkIsolation": true}}
                """).formatted(IMAGE));

        String name = providerName(expect(api.post("/api/v1/teams/" + team + "/jobs:sagemaker", body), 201).json(), 1);
        JsonNode create = await().until(() -> SAGEMAKER.requests("CreateProcessingJob", "ProcessingJobName", name),
                l -> !l.isEmpty()).get(0);

        var expected = (tools.jackson.databind.node.ObjectNode) body.deepCopy();
        expected.put("ProcessingJobName", name);
        var tags = expected.putArray("Tags");
        tags.addObject().put("Key", "spillover:job").put("Value", "tokenize");
        tags.addObject().put("Key", "spillover:team").put("Value", team);
        assertThat(create).isEqualTo(expected);
    }

    @Test
    void anOrdinaryJobsPassThroughFieldsReachItsCreateButNotInPlaceOfWhatSpilloverSelected() {
        String team = team(Map.of("ml.g6.12xlarge", 1));
        var body = sageMakerJob("plain-extra", entry("ml.g6.12xlarge", 1));
        body.put("sagemaker", Map.of("passThrough", Map.of(
                "CheckpointConfig", Map.of("S3Uri", "s3://speech-models/checkpoints"),
                "ResourceConfig", Map.of("InstanceType", "ml.p5.48xlarge", "KeepAlivePeriodInSeconds", 300))));
        String name = providerName(submit(team, body), 1);

        JsonNode create = await().until(() -> SAGEMAKER.requests("CreateTrainingJob", "TrainingJobName", name),
                l -> !l.isEmpty()).get(0);

        assertThat(create.get("CheckpointConfig").toString()).isEqualTo("{\"S3Uri\":\"s3://speech-models/checkpoints\"}");
        assertThat(create.get("ResourceConfig").toString()).isEqualTo("{\"InstanceType\":\"ml.g6.12xlarge\","
                + "\"InstanceCount\":1,\"VolumeSizeInGB\":50,\"KeepAlivePeriodInSeconds\":300}");
    }

    @Test
    void aPreemptedTrainingJobsNextAttemptCarriesTheSameCheckpointConfig() {
        String type = "ml.g6e.12xlarge";
        String lender = team(Map.of(type, 8));
        String borrower = team(Map.of(type, 0));
        expect(api.put("/api/v1/admin/teams/" + borrower, Map.of("displayName", "Borrower",
                "sharing", Map.of("strategy", "LEND_AND_BORROW"))), 200);
        Map<String, Object> checkpoint = Map.of("S3Uri", "s3://spillover-checkpoints/" + borrower + "/resumable",
                "LocalPath", "/opt/ml/checkpoints");
        var resumable = sageMakerJob("resumable", entry(type, 8));
        resumable.put("preemptible", true);
        resumable.put("sagemaker", Map.of("passThrough", Map.of("CheckpointConfig", checkpoint)));
        JsonNode submitted = submit(borrower, resumable);
        String first = providerName(submitted, 1);
        await().until(() -> SAGEMAKER.job(first) != null);
        SAGEMAKER.move(first, "InProgress", "Training", "Training in progress");
        assertThat(awaitStatus(borrower, "resumable", "RUNNING").at("/selection/borrowedInstances").asInt()).isEqualTo(8);

        String own = providerName(submit(lender, sageMakerJob("own", entry(type, 8))), 1);

        await().until(() -> SAGEMAKER.job(own) != null);
        assertThat(SAGEMAKER.requests("StopTrainingJob", "TrainingJobName", first)).hasSize(1);
        JsonNode preempted = awaitStatus(borrower, "resumable", "PENDING");
        assertThat(preempted.get("preemptions").asInt()).isEqualTo(1);
        assertThat(preempted.get("statusReason").asString()).isEqualTo("PREEMPTED");

        expect(api.post("/api/v1/teams/" + lender + "/jobs/own/stop", Map.of()), 200);
        String second = providerName(submitted, 2);
        await().until(() -> SAGEMAKER.job(second) != null);

        JsonNode firstCreate = SAGEMAKER.requests("CreateTrainingJob", "TrainingJobName", first).get(0);
        JsonNode secondCreate = SAGEMAKER.requests("CreateTrainingJob", "TrainingJobName", second).get(0);
        assertThat(secondCreate.get("CheckpointConfig")).isEqualTo(firstCreate.get("CheckpointConfig"));
        assertThat(secondCreate.at("/CheckpointConfig/S3Uri").asString()).isEqualTo(checkpoint.get("S3Uri"));
        assertThat(secondCreate.at("/CheckpointConfig/LocalPath").asString()).isEqualTo("/opt/ml/checkpoints");
        assertThat(awaitStatus(borrower, "resumable", "STARTING", "RUNNING").get("attempt").asInt()).isEqualTo(2);
    }

    @Test
    void aJobOptsInToPreemptionOnlyAsATrainingJobWithACheckpointLocation() {
        String team = team(Map.of("ml.m5.xlarge", 2));
        var without = sageMakerJob("no-checkpoint", entry("ml.m5.xlarge", 1));
        without.put("preemptible", true);
        var elsewhere = sageMakerJob("not-s3", entry("ml.m5.xlarge", 1));
        elsewhere.put("preemptible", true);
        elsewhere.put("sagemaker", Map.of("passThrough", Map.of("CheckpointConfig", Map.of("S3Uri", "/tmp/ckpt"))));
        var processing = sageMakerJob("processing", entry("ml.m5.xlarge", 1));
        processing.put("kind", "PROCESSING");
        processing.put("preemptible", true);

        assertThat(errors(expect(api.post("/api/v1/teams/" + team + "/jobs", without), 400).json()))
                .containsExactly("sagemaker.passThrough.CheckpointConfig.S3Uri: must be set: a preemptible training job"
                        + " resumes from the checkpoint SageMaker copies from there into each of its attempts");
        assertThat(errors(expect(api.post("/api/v1/teams/" + team + "/jobs", elsewhere), 400).json()))
                .containsExactly("sagemaker.passThrough.CheckpointConfig.S3Uri: must be an s3:// URI: a preemptible"
                        + " training job resumes from the checkpoint SageMaker copies from there into each of its attempts");
        assertThat(errors(expect(api.post("/api/v1/teams/" + team + "/jobs", processing), 400).json()))
                .containsExactly("preemptible: SageMaker processing jobs have no checkpoint to resume from; only a"
                        + " training job can be preemptible");
        assertThat(expect(api.get("/api/v1/teams/" + team + "/jobs"), 200).json().get("items").isEmpty()).isTrue();
    }

    private static List<String> errors(JsonNode problem) {
        return problem.get("errors").valueStream().map(e -> e.get("field").asString() + ": "
                + e.get("message").asString()).toList();
    }

    private static Map<String, Object> sageMakerJob(String name, Map<String, Object>... entries) {
        var body = job(name, entries);
        body.remove("local");
        body.put("container", Map.of("image", IMAGE));
        return body;
    }

    /** The SageMaker job name of an attempt, as Spillover derives it from the job's id. */
    private static String providerName(JsonNode job, int attempt) {
        return "spl-" + job.get("id").asString().replace("-", "") + "-" + attempt;
    }

    private static List<String> statuses(JsonNode job) {
        List<String> statuses = new ArrayList<>();
        job.get("transitions").forEach(t -> statuses.add(t.get("to").asString()));
        return statuses;
    }

    private JsonNode offering(String instanceType) {
        for (JsonNode offering : expect(api.get("/api/v1/capacity"), 200).json()) {
            if (offering.get("instanceType").asString().equals(instanceType)
                    && offering.get("source").asString().equals("on-demand")) {
                return offering;
            }
        }
        throw new AssertionError("no offering of " + instanceType);
    }

    private JsonNode plan(String team, String plan) {
        for (JsonNode view : expect(api.get("/api/v1/teams/" + team + "/training-plans"), 200).json()) {
            if (view.get("name").asString().equals(plan)) {
                return view;
            }
        }
        throw new AssertionError("no plan " + plan);
    }

    private String health() {
        return api.as(null).get("/actuator/health").json().get("status").asString();
    }
}
