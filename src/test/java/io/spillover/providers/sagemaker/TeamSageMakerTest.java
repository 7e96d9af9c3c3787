package io.spillover.providers.sagemaker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.spillover.support.ApiTest;
import io.spillover.support.ConsoleSession;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * Per-team SageMaker settings, end to end against the fake SageMaker: a Spillover started with a region and no
 * global role or output location, teams whose admin-set role, output, VPC, KMS key and tags reach the create
 * calls, jobs whose own values win, and the platform's allow-list keeping each team to its own roles.
 */
@TestPropertySource(properties = {
        // Required: only the region. No role-arn, no output-s3-uri.
        "spillover.provider=sagemaker",
        "spillover.sagemaker.region=us-east-1",
        "spillover.sagemaker.allowed-role-arns[0]=arn:aws:iam::111122223333:role/spillover/{team}/*",
        // Capacity to launch on, and quick status reads so that the jobs left are stopped quickly after each test.
        "spillover.sagemaker.fleet[0].instance-type=ml.m5.xlarge",
        "spillover.sagemaker.fleet[0].on-demand-capacity=8",
        "spillover.sagemaker.fleet[1].instance-type=ml.p4d.24xlarge",
        "spillover.sagemaker.fleet[1].on-demand-capacity=8",
        "spillover.sagemaker.status-interval=100ms"})
class TeamSageMakerTest extends ApiTest {

    static final String IMAGE = "111122223333.dkr.ecr.us-east-1.amazonaws.com/train:1";
    static final String KEY = "arn:aws:kms:us-east-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab";
    static final FakeSageMaker SAGEMAKER;

    static {
        System.setProperty("aws.accessKeyId", "AKIAIOSFODNN7EXAMPLE");
        System.setProperty("aws.secretAccessKey", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY");
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

    @Test
    void aTeamsRoleOutputVpcKeyAndTagsSetByAnAdminReachCreateTrainingJob() {
        String team = team(Map.of("ml.m5.xlarge", 2));
        JsonNode saved = expect(api.put(settingsOf(team), teamSettings(team)), 200).json();
        assertThat(saved).isEqualTo(expect(api.get(settingsOf(team)), 200).json());

        JsonNode job = submit(team, sageMakerJob("team-defaults", "ml.m5.xlarge"));
        JsonNode create = created("CreateTrainingJob", "TrainingJobName", providerName(job));

        assertThat(create.get("RoleArn").asString()).isEqualTo(role(team, "train"));
        assertThat(create.get("OutputDataConfig").toString())
                .isEqualTo("{\"KmsKeyId\":\"" + KEY + "\",\"S3OutputPath\":\"s3://team-bucket/out\"}");
        assertThat(create.get("ResourceConfig").get("VolumeKmsKeyId").asString()).isEqualTo(KEY);
        assertThat(create.get("VpcConfig").toString()).isEqualTo("{\"SecurityGroupIds\":[\"sg-0123abcd\"],"
                + "\"Subnets\":[\"subnet-0a1b2c3d\",\"subnet-4e5f6a7b\"]}");
        assertThat(tags(create)).containsExactly("spillover:job=team-defaults", "spillover:team=" + team,
                "cost-center=ml-42", "owner=vision");
        assertThat(job.get("sagemaker").get("roleArn").asString()).as("the job shows what it runs with")
                .isEqualTo(role(team, "train"));
    }

    @Test
    void theAdminTeamsPageShowsEachTeamsSettings() {
        String team = team(Map.of("ml.m5.xlarge", 1));
        expect(api.put(settingsOf(team), teamSettings(team)), 200);
        String admin = "sm-admin-" + System.nanoTime();
        expect(api.put("/api/v1/admin/users/" + admin, Map.of("displayName", admin, "password", "a-long-enough-password",
                "platformAdmin", true)), 201);
        var browser = new ConsoleSession(port());
        browser.signIn(admin, "a-long-enough-password");

        String page = browser.get("/admin/teams").body();

        assertThat(page).contains(role(team, "train"), "s3://team-bucket/out",
                "VPC subnet-0a1b2c3d, subnet-4e5f6a7b / sg-0123abcd", "KMS " + KEY, "cost-center=ml-42");
    }

    @Test
    void aJobsOwnValuesOverrideItsTeamsAndTheRestComesFromTheTeam() {
        String team = team(Map.of("ml.p4d.24xlarge", 1));
        expect(api.put(settingsOf(team), teamSettings(team)), 200);
        var body = sageMakerJob("own-values", "ml.p4d.24xlarge");
        body.put("sagemaker", Map.of("roleArn", role(team, "experiments"), "outputS3Uri", "s3://job-bucket/run-7",
                "tags", Map.of("cost-center", "ml-99")));

        JsonNode create = created("CreateTrainingJob", "TrainingJobName", providerName(submit(team, body)));

        assertThat(create.get("RoleArn").asString()).isEqualTo(role(team, "experiments"));
        assertThat(create.get("OutputDataConfig").get("S3OutputPath").asString()).isEqualTo("s3://job-bucket/run-7");
        assertThat(create.get("OutputDataConfig").get("KmsKeyId").asString()).isEqualTo(KEY);
        assertThat(create.get("VpcConfig").get("Subnets")).hasSize(2);
        assertThat(tags(create)).containsExactly("spillover:job=own-values", "spillover:team=" + team,
                "cost-center=ml-99", "owner=vision");
        assertThat(create.get("ResourceConfig").has("VolumeKmsKeyId"))
                .as("p4d's NVMe instance storage is encrypted by its hardware; SageMaker refuses a volume key for it")
                .isFalse();
    }

    @Test
    void aProcessingJobJoinsItsTeamsVpcAndEncryptsItsVolumeWithTheTeamsKey() {
        String team = team(Map.of("ml.m5.xlarge", 1));
        expect(api.put(settingsOf(team), teamSettings(team)), 200);
        var body = sageMakerJob("prep", "ml.m5.xlarge");
        body.put("kind", "PROCESSING");

        JsonNode create = created("CreateProcessingJob", "ProcessingJobName", providerName(submit(team, body)));

        assertThat(create.get("RoleArn").asString()).isEqualTo(role(team, "train"));
        assertThat(create.get("NetworkConfig").get("VpcConfig").get("SecurityGroupIds").get(0).asString())
                .isEqualTo("sg-0123abcd");
        assertThat(create.get("ProcessingResources").get("ClusterConfig").get("VolumeKmsKeyId").asString())
                .isEqualTo(KEY);
        assertThat(tags(create)).contains("cost-center=ml-42");
    }

    @Test
    void anAdminCannotGiveATeamAnotherTeamsRole() {
        String team = team(Map.of("ml.m5.xlarge", 1));
        String other = team(Map.of("ml.m5.xlarge", 1));

        JsonNode problem = expect(api.put(settingsOf(team), Map.of("roleArn", role(other, "train"))), 400).json();

        assertThat(fields(problem)).containsExactly("roleArn");
        assertThat(problem.get("errors").get(0).get("message").asString()).isEqualTo("role " + role(other, "train")
                + " is not one team " + team + " may run as (spillover.sagemaker.allowed-role-arns:"
                + " arn:aws:iam::111122223333:role/spillover/" + team + "/*)");
        assertThat(expect(api.get(settingsOf(team)), 200).json().get("roleArn").isNull()).as("nothing stored").isTrue();
    }

    @Test
    void aJobCannotRunAsAnotherTeamsRole() {
        String team = team(Map.of("ml.m5.xlarge", 1));
        String other = team(Map.of("ml.m5.xlarge", 1));
        var body = sageMakerJob("borrowed", "ml.m5.xlarge");
        body.put("sagemaker", Map.of("roleArn", role(other, "train"), "outputS3Uri", "s3://job-bucket/out"));

        JsonNode problem = expect(api.post("/api/v1/teams/" + team + "/jobs", body), 400).json();

        assertThat(fields(problem)).containsExactly("sagemaker.roleArn");
        assertThat(problem.get("errors").get(0).get("message").asString()).startsWith("role " + role(other, "train")
                + " is not one team " + team + " may run as");
        assertThat(expect(api.get("/api/v1/teams/" + team + "/jobs"), 200).json().get("items")).isEmpty();
    }

    @Test
    void aJobWithNoRoleAnywhereIsRefusedAtSubmissionNotFailedAtLaunch() {
        String team = team(Map.of("ml.m5.xlarge", 1));

        JsonNode problem = expect(api.post("/api/v1/teams/" + team + "/jobs",
                sageMakerJob("roleless", "ml.m5.xlarge")), 400).json();

        assertThat(fields(problem)).containsExactly("sagemaker.roleArn", "sagemaker.outputS3Uri");
        assertThat(problem.get("errors").get(0).get("message").asString()).startsWith("no execution role to run as");
        assertThat(expect(api.get("/api/v1/teams/" + team + "/jobs"), 200).json().get("items")).isEmpty();
        assertThat(SAGEMAKER.requests("CreateTrainingJob")).isEmpty();
    }

    @Test
    void aProcessingJobNeedsARoleButNoOutputLocation() {
        String team = team(Map.of("ml.m5.xlarge", 1));
        expect(api.put(settingsOf(team), Map.of("roleArn", role(team, "prep"))), 200);
        var body = sageMakerJob("role-only", "ml.m5.xlarge");
        body.put("kind", "PROCESSING");

        JsonNode create = created("CreateProcessingJob", "ProcessingJobName", providerName(submit(team, body)));

        assertThat(create.get("RoleArn").asString()).isEqualTo(role(team, "prep"));
        var training = sageMakerJob("role-no-output", "ml.m5.xlarge");
        assertThat(fields(expect(api.post("/api/v1/teams/" + team + "/jobs", training), 400).json()))
                .containsExactly("sagemaker.outputS3Uri");
    }

    @Test
    void aJobsTagsWithItsTeamsMayNotPassSageMakersFiftyTagsAJob() {
        String team = team(Map.of("ml.m5.xlarge", 1));
        var teamTags = new LinkedHashMap<String, String>();
        var jobTags = new LinkedHashMap<String, String>();
        for (int i = 0; i < 40; i++) {
            teamTags.put("team-" + i, "t");
            jobTags.put(i < 30 ? "team-" + i : "job-" + i, "j"); // 30 the same keys, 10 new: 50 with the team's
        }
        expect(api.put(settingsOf(team), Map.of("roleArn", role(team, "train"), "outputS3Uri", "s3://team-bucket/out",
                "tags", teamTags)), 200);
        var body = sageMakerJob("tagged", "ml.m5.xlarge");
        body.put("sagemaker", Map.of("tags", jobTags));

        JsonNode problem = expect(api.post("/api/v1/teams/" + team + "/jobs", body), 400).json();

        assertThat(fields(problem)).containsExactly("sagemaker.tags");
        assertThat(problem.get("errors").get(0).get("message").asString()).isEqualTo("with team " + team
                + "'s tags the job has 50; SageMaker takes 48 besides Spillover's own two");
    }

    @Test
    void badSettingsAreRefusedNamingEachFieldAndNothingIsStored() {
        String team = team(Map.of("ml.m5.xlarge", 1));
        var bad = new LinkedHashMap<String, Object>();
        bad.put("roleArn", "arn:aws:iam::111122223333:user/someone");
        bad.put("outputS3Uri", "https://team-bucket/out");
        bad.put("vpcConfig", Map.of("securityGroupIds", List.of("default"), "subnets", List.of()));
        bad.put("kmsKeyId", "my key");
        bad.put("tags", Map.of("aws:createdBy", "me"));

        JsonNode problem = expect(api.put(settingsOf(team), bad), 400).json();

        assertThat(fields(problem)).containsExactlyInAnyOrder("roleArn", "outputS3Uri",
                "vpcConfig.securityGroupIds[0]", "vpcConfig.subnets", "kmsKeyId", "tags[aws:createdBy]");
        assertThat(expect(api.get(settingsOf(team)), 200).json().get("roleArn").isNull()).isTrue();
        assertThat(expect(api.put(settingsOf("no-such-team"), Map.of()), 404).status()).isEqualTo(404);
    }

    private static String settingsOf(String team) {
        return "/api/v1/admin/teams/" + team + "/sagemaker";
    }

    private static String role(String team, String name) {
        return "arn:aws:iam::111122223333:role/spillover/" + team + "/" + name;
    }

    private static Map<String, Object> teamSettings(String team) {
        return Map.of("roleArn", role(team, "train"), "outputS3Uri", "s3://team-bucket/out",
                "vpcConfig", Map.of("securityGroupIds", List.of("sg-0123abcd"),
                        "subnets", List.of("subnet-0a1b2c3d", "subnet-4e5f6a7b")),
                "kmsKeyId", KEY, "tags", Map.of("cost-center", "ml-42", "owner", "vision"));
    }

    private static Map<String, Object> sageMakerJob(String name, String instanceType) {
        var body = job(name, entry(instanceType, 1));
        body.remove("local");
        body.put("container", Map.of("image", IMAGE));
        return body;
    }

    private static String providerName(JsonNode job) {
        return "spl-" + job.get("id").asString().replace("-", "") + "-1";
    }

    private static JsonNode created(String operation, String nameField, String name) {
        return await().until(() -> SAGEMAKER.requests(operation, nameField, name), l -> !l.isEmpty()).get(0);
    }

    private static List<String> tags(JsonNode create) {
        var tags = new ArrayList<String>();
        create.get("Tags").forEach(t -> tags.add(t.get("Key").asString() + "=" + t.get("Value").asString()));
        return tags;
    }

    private static List<String> fields(JsonNode problem) {
        var fields = new ArrayList<String>();
        problem.get("errors").forEach(e -> fields.add(e.get("field").asString()));
        return fields;
    }
}
