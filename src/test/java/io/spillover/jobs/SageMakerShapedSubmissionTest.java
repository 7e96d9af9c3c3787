package io.spillover.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillover.support.Api;
import io.spillover.support.ApiTest;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code POST /teams/{team}/jobs:sagemaker}: a CreateTrainingJob or CreateProcessingJob body as boto3 sends it
 * becomes the job {@code POST /jobs} would make, under the same rules, with what Spillover does not model kept.
 * Runs on the local provider, which keeps the pass-through fields but does not use them.
 */
class SageMakerShapedSubmissionTest extends ApiTest {

    static final String P5 = "ml.p5.48xlarge";
    static final String P4D = "ml.p4d.24xlarge";
    static final String M5 = "ml.m5.xlarge";
    static final String IMAGE = "111122223333.dkr.ecr.us-east-1.amazonaws.com/train:1";

    private String team;

    @BeforeEach
    void aTeam() {
        capacity(P5, 0);
        capacity(P4D, 0);
        team = team(Map.of(P5, 2, P4D, 4, M5, 2));
    }

    @Test
    void aCreateTrainingJobBodyBecomesTheJobThePlainApiMakesAndKeepsWhatSpilloverDoesNotModel() {
        Api.Response response = api.post(path(), training("llama-ft-7"));

        assertThat(response.status()).isEqualTo(201);
        JsonNode job = response.json();
        assertThat(job.get("name").asString()).isEqualTo("llama-ft-7");
        assertThat(job.get("kind").asString()).isEqualTo("TRAINING");
        assertThat(job.get("status").asString()).isEqualTo("PENDING");
        assertThat(entries(job)).containsExactly("ml.p5.48xlarge x2", "ml.p4d.24xlarge x4");
        assertThat(job.get("maxPendingTimeInSeconds").asLong()).isEqualTo(14_400);
        assertThat(job.get("maxRuntimeInSeconds").asLong()).isEqualTo(86_400);
        assertThat(job.get("container").toString()).isEqualTo("{\"image\":\"" + IMAGE
                + "\",\"command\":[],\"environment\":{\"NCCL_DEBUG\":\"INFO\"}}");
        JsonNode sagemaker = job.get("sagemaker");
        assertThat(sagemaker.get("roleArn").asString()).isEqualTo("arn:aws:iam::111122223333:role/SpeechTraining");
        assertThat(sagemaker.get("outputS3Uri").asString()).isEqualTo("s3://speech-models/out");
        assertThat(sagemaker.get("hyperParameters").toString()).isEqualTo("{\"epochs\":\"3\"}");
        assertThat(sagemaker.get("volumeSizeInGB").asInt()).isEqualTo(500);
        assertThat(sagemaker.get("passThrough")).isEqualTo(Api.JSON.readTree(("{'InputDataConfig':[{'ChannelName':'train',"
                + "'DataSource':{'S3DataSource':{'S3DataType':'S3Prefix','S3Uri':'s3://speech-data/train/'}}}],"
                + "'CheckpointConfig':{'S3Uri':'s3://speech-models/checkpoints'},"
                + "'Tags':[{'Key':'project','Value':'llama'}],"
                + "'AlgorithmSpecification':{'TrainingInputMode':'FastFile','ContainerEntrypoint':['torchrun'],"
                + "'ContainerArguments':['train.py']},"
                + "'OutputDataConfig':{'KmsKeyId':'alias/speech'},"
                + "'ResourceConfig':{'VolumeKmsKeyId':'alias/speech-volumes'},"
                + "'StoppingCondition':{'MaxWaitTimeInSeconds':90000}}").replace('\'', '"')));
        assertThat(describe(team, "llama-ft-7").get("sagemaker")).isEqualTo(sagemaker);
        assertThat(response.text()).doesNotContain("InstancePreferences");
    }

    @Test
    void oneCountForTheJobAndOneInstanceTypeWithoutAListAreTakenAsSageMakerTakesThem() {
        ObjectNode uniform = training("uniform");
        ObjectNode resources = (ObjectNode) uniform.get("ResourceConfig");
        resources.put("InstanceCount", 2);
        resources.get("InstancePreferences").forEach(e -> ((ObjectNode) e).remove("InstanceCount"));
        ObjectNode single = training("single");
        single.set("ResourceConfig", Api.JSON.readTree("{\"InstanceType\": \"ml.p4d.24xlarge\", \"InstanceCount\": 3}"));

        JsonNode one = expect(api.post(path(), uniform), 201).json();
        JsonNode other = expect(api.post(path(), single), 201).json();

        assertThat(one.get("instanceCount").asInt()).isEqualTo(2);
        assertThat(entries(one)).containsExactly("ml.p5.48xlarge x2", "ml.p4d.24xlarge x2");
        assertThat(entries(other)).containsExactly("ml.p4d.24xlarge x3");
    }

    @Test
    void aCreateProcessingJobBodyBecomesAProcessingJob() {
        JsonNode body = Api.JSON.readTree(("""
                {"ProcessingJobName": "tokenize-7",
                 "AppSpecification": {"ImageUri": "%s", "ContainerEntrypoint": ["python3", "tokenize.py"]},
                 "RoleArn": "arn:aws:iam::111122223333:role/SpeechProcessing",
                 "ProcessingResources": {"ClusterConfig": {"InstanceType": "ml.m5.xlarge", "InstanceCount": 2,
                   "VolumeSizeInGB": 30}},
                 "StoppingCondition": {"MaxRuntimeInSeconds": 3600},
                 "ProcessingInputs": [{"InputName": "raw", "S3Input": {"S3Uri": "s3://speech-data/raw/",
                   "LocalPath": "/opt/ml/processing/input", "S3DataType": "S3Prefix", "S3InputMode": "File"}}],
                 "ProcessingOutputConfig": {"Outputs": [{"OutputName": "tokens", "S3Output": {
                   "S3Uri": "s3://speech-data/tokens/", "LocalPath": "/opt/ml/processing/output",
                   "S3UploadMode": "EndOfJob"}}]}}
                """).formatted(IMAGE));

        JsonNode job = expect(api.post(path(), body), 201).json();

        assertThat(job.get("kind").asString()).isEqualTo("PROCESSING");
        assertThat(job.get("name").asString()).isEqualTo("tokenize-7");
        assertThat(entries(job)).containsExactly("ml.m5.xlarge x2");
        assertThat(job.get("container").get("image").asString()).isEqualTo(IMAGE);
        assertThat(job.get("sagemaker").get("volumeSizeInGB").asInt()).isEqualTo(30);
        JsonNode passThrough = job.get("sagemaker").get("passThrough");
        assertThat(passThrough.get("ProcessingInputs")).isEqualTo(body.get("ProcessingInputs"));
        assertThat(passThrough.get("ProcessingOutputConfig")).isEqualTo(body.get("ProcessingOutputConfig"));
        assertThat(passThrough.get("AppSpecification").toString())
                .isEqualTo("{\"ContainerEntrypoint\":[\"python3\",\"tokenize.py\"]}");
    }

    @Test
    void aTrainingPlanArnNamesThePlanTheTeamRegisteredWithIt() {
        String arn = "arn:aws:sagemaker:us-east-1:111122223333:training-plan/speech-h100";
        String plan = "speech-h100-" + System.nanoTime();
        Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        expect(api.put("/api/v1/admin/training-plans/" + plan, Map.of("arn", arn, "instanceType", P5,
                "instanceCount", 2, "startTime", now.minusSeconds(60).toString(),
                "endTime", now.plusSeconds(86_400).toString(), "teams", List.of(team))), 201);
        ObjectNode body = training("on-plan");
        ((ObjectNode) body.get("ResourceConfig").get("InstancePreferences").get(0)).putArray("TrainingPlanArns").add(arn);

        JsonNode job = expect(api.post(path(), body), 201).json();

        assertThat(job.get("instancePreferences").get(0).get("trainingPlan").asString()).isEqualTo(plan);
        assertThat(job.get("instancePreferences").get(1).get("trainingPlan").isNull()).isTrue();
    }

    @Test
    void aPlanArnTheTeamHasNoPlanForIsRefusedNamingItsEntry() {
        String elsewhere = team(Map.of(P5, 2));
        String arn = "arn:aws:sagemaker:us-east-1:111122223333:training-plan/theirs-" + System.nanoTime();
        Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        expect(api.put("/api/v1/admin/training-plans/theirs-" + System.nanoTime(), Map.of("arn", arn,
                "instanceType", P5, "instanceCount", 2, "startTime", now.toString(),
                "endTime", now.plusSeconds(86_400).toString(), "teams", List.of(elsewhere))), 201);
        ObjectNode body = training("not-mine");
        ((ObjectNode) body.get("ResourceConfig").get("InstancePreferences").get(0)).put("TrainingPlanArn", arn);

        JsonNode problem = expect(api.post(path(), body), 400).json();

        assertThat(problem.get("errors").toString()).isEqualTo("[{\"field\":"
                + "\"ResourceConfig.InstancePreferences[0].TrainingPlanArn\",\"message\":\"unknown training plan "
                + arn + "\"}]");
        assertThat(jobCount()).isZero();
    }

    @Test
    void aRetryWithTheSameClientTokenAnswersTheFirstJob() {
        ObjectNode body = training("retried");
        body.put("ClientToken", "pipeline-run-77");

        JsonNode first = expect(api.post(path(), body), 201).json();
        JsonNode again = expect(api.post(path(), body), 200).json();

        assertThat(again.get("id")).isEqualTo(first.get("id"));
        assertThat(first.get("clientToken").asString()).isEqualTo("pipeline-run-77");
        assertThat(jobCount()).isEqualTo(1);
    }

    @Test
    void theSubmissionIsAuditedAsAnyOther() {
        expect(api.post(path(), training("audited-sm")), 201);

        JsonNode newest = expect(api.get("/api/v1/admin/audit?size=1"), 200).json().get(0);
        assertThat(newest.get("action").asString()).isEqualTo("submit job");
        assertThat(newest.get("target").asString()).isEqualTo("teams/" + team + "/jobs");
        assertThat(newest.get("outcome").asString()).isEqualTo("done");
    }

    static Stream<Arguments> brokenBodies() {
        return Stream.of(
                broken("a count that is not a number", b -> entry(b, 1).put("InstanceCount", "two"),
                        "ResourceConfig.InstancePreferences[1].InstanceCount"),
                broken("an entry field SageMaker does not have", b -> entry(b, 0).put("Weight", 3),
                        "ResourceConfig.InstancePreferences[0].Weight"),
                broken("a later entry over the team quota", b -> entry(b, 1).put("InstanceCount", 5),
                        "ResourceConfig.InstancePreferences[1].InstanceCount"),
                broken("an unknown instance type", b -> entry(b, 0).put("InstanceType", "ml.p9.96xlarge"),
                        "ResourceConfig.InstancePreferences[0].InstanceType"),
                broken("a count on some entries only", b -> entry(b, 1).remove("InstanceCount"),
                        "ResourceConfig.InstancePreferences[1].InstanceCount"),
                broken("counts beside the list and on entries", b -> resources(b).put("InstanceCount", 2),
                        "ResourceConfig.InstanceCount"),
                broken("a type beside the list", b -> resources(b).put("InstanceType", P5),
                        "ResourceConfig.InstanceType"),
                broken("a plan beside the list", b -> resources(b).put("TrainingPlanArn", "arn:aws:x"),
                        "ResourceConfig.TrainingPlanArn"),
                broken("two plans on an entry", b -> entry(b, 0).putArray("TrainingPlanArns").add("a").add("b"),
                        "ResourceConfig.InstancePreferences[0].TrainingPlanArns"),
                broken("a heterogeneous cluster", b -> resources(b).putArray("InstanceGroups").addObject()
                        .put("InstanceGroupName", "a"), "ResourceConfig.InstanceGroups"),
                broken("no ResourceConfig", b -> b.remove("ResourceConfig"), "ResourceConfig"),
                broken("both job names", b -> b.put("ProcessingJobName", "also"), "ProcessingJobName"),
                broken("no job name", b -> b.remove("TrainingJobName"), "TrainingJobName"),
                broken("an invalid job name", b -> b.put("TrainingJobName", "no spaces"), "TrainingJobName"),
                broken("a processing field in a training body", b -> b.putObject("ProcessingResources"),
                        "ProcessingResources"),
                broken("a pending time of zero", b -> stopping(b).put("MaxPendingTimeInSeconds", 0),
                        "StoppingCondition.MaxPendingTimeInSeconds"),
                broken("a run time of zero", b -> stopping(b).put("MaxRuntimeInSeconds", 0),
                        "StoppingCondition.MaxRuntimeInSeconds"),
                broken("an invalid environment name", b -> ((ObjectNode) b.get("Environment")).put("1BAD", "x"),
                        "Environment[1BAD]"),
                broken("an environment value that is null", b -> ((ObjectNode) b.get("Environment")).putNull("X"),
                        "Environment[X]"),
                broken("a role that is not a role", b -> b.put("RoleArn", "admin"), "RoleArn"),
                broken("an output path that is not S3", b -> ((ObjectNode) b.get("OutputDataConfig"))
                        .put("S3OutputPath", "/tmp/out"), "OutputDataConfig.S3OutputPath"),
                broken("a volume of zero", b -> resources(b).put("VolumeSizeInGB", 0), "ResourceConfig.VolumeSizeInGB"),
                broken("a list that is not a list", b -> resources(b).put("InstancePreferences", P5),
                        "ResourceConfig.InstancePreferences"),
                broken("an empty list", b -> resources(b).putArray("InstancePreferences"),
                        "ResourceConfig.InstancePreferences"));
    }

    @ParameterizedTest(name = "refuses {0}")
    @MethodSource("brokenBodies")
    void refusesABrokenBodyNamingTheBodysOwnFieldAndStoresNothing(String description, Consumer<ObjectNode> breakIt,
                                                                  String field) {
        ObjectNode body = training("broken");
        breakIt.accept(body);

        Api.Response response = api.post(path(), body);

        assertThat(response.status()).as(response.text()).isEqualTo(400);
        assertThat(response.json().get("title").asString()).isEqualTo("Invalid request");
        assertThat(fields(response.json())).contains(field);
        assertThat(jobCount()).isZero();
    }

    @ParameterizedTest(name = "answers 400 to {0}")
    @MethodSource("io.spillover.jobs.SageMakerShapedSubmissionTest#badInput")
    void answersBadInputWithAProblemNeverAServerError(String description, String body) {
        Api.Response response = api.post(path(), body);

        assertThat(response.status()).isEqualTo(400);
        assertThat(response.json().get("errors").isArray()).isTrue();
        assertThat(jobCount()).isZero();
    }

    static Stream<Arguments> badInput() {
        return Stream.of(
                Arguments.of("malformed JSON", "{\"TrainingJobName\": "),
                Arguments.of("not an object", "[1, 2, 3]"),
                Arguments.of("an empty body", ""),
                Arguments.of("null", "null"),
                Arguments.of("a null entry", "{\"TrainingJobName\":\"x\",\"ResourceConfig\":{\"InstanceCount\":1,"
                        + "\"InstancePreferences\":[null]}}"),
                Arguments.of("a string where an object goes", "{\"TrainingJobName\":\"x\",\"ResourceConfig\":\"big\"}"),
                Arguments.of("deep nesting in a pass-through field", "{\"TrainingJobName\":\"x\",\"Deep\":"
                        + "{\"a\":".repeat(2000) + "1" + "}".repeat(2001)));
    }

    /** A CreateTrainingJob body as boto3 sends it: 2 x p5, else 4 x p4d, with fields Spillover does not model. */
    private static ObjectNode training(String name) {
        return (ObjectNode) Api.JSON.readTree(("""
                {"TrainingJobName": "%s",
                 "AlgorithmSpecification": {"TrainingImage": "%s", "TrainingInputMode": "FastFile",
                   "ContainerEntrypoint": ["torchrun"], "ContainerArguments": ["train.py"]},
                 "RoleArn": "arn:aws:iam::111122223333:role/SpeechTraining",
                 "InputDataConfig": [{"ChannelName": "train", "DataSource": {"S3DataSource": {
                   "S3DataType": "S3Prefix", "S3Uri": "s3://speech-data/train/"}}}],
                 "OutputDataConfig": {"S3OutputPath": "s3://speech-models/out", "KmsKeyId": "alias/speech"},
                 "ResourceConfig": {"InstancePreferences": [
                     {"InstanceType": "ml.p5.48xlarge", "InstanceCount": 2},
                     {"InstanceType": "ml.p4d.24xlarge", "InstanceCount": 4}],
                   "VolumeSizeInGB": 500, "VolumeKmsKeyId": "alias/speech-volumes"},
                 "StoppingCondition": {"MaxRuntimeInSeconds": 86400, "MaxPendingTimeInSeconds": 14400,
                   "MaxWaitTimeInSeconds": 90000},
                 "HyperParameters": {"epochs": "3"},
                 "Environment": {"NCCL_DEBUG": "INFO"},
                 "CheckpointConfig": {"S3Uri": "s3://speech-models/checkpoints"},
                 "Tags": [{"Key": "project", "Value": "llama"}]}
                """).formatted(name, IMAGE));
    }

    private static Arguments broken(String description, Consumer<ObjectNode> breakIt, String field) {
        return Arguments.of(description, breakIt, field);
    }

    private static ObjectNode resources(ObjectNode body) {
        return (ObjectNode) body.get("ResourceConfig");
    }

    private static ObjectNode entry(ObjectNode body, int index) {
        return (ObjectNode) ((ArrayNode) resources(body).get("InstancePreferences")).get(index);
    }

    private static ObjectNode stopping(ObjectNode body) {
        return (ObjectNode) body.get("StoppingCondition");
    }

    private String path() {
        return "/api/v1/teams/" + team + "/jobs:sagemaker";
    }

    private static List<String> entries(JsonNode job) {
        var entries = new ArrayList<String>();
        int uniform = job.path("instanceCount").asInt(0);
        job.get("instancePreferences").forEach(e -> entries.add(e.get("instanceType").asString() + " x"
                + (e.hasNonNull("instanceCount") ? e.get("instanceCount").asInt() : uniform)));
        return entries;
    }

    private static List<String> fields(JsonNode problem) {
        var fields = new ArrayList<String>();
        problem.get("errors").forEach(e -> fields.add(e.get("field").asString()));
        return fields;
    }

    private int jobCount() {
        return api.get("/api/v1/teams/" + team + "/jobs").json().get("totalItems").asInt();
    }
}
