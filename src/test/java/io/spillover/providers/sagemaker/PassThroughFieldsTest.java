package io.spillover.providers.sagemaker;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/** How a job's pass-through fields join the create call Spillover marshalled. */
class PassThroughFieldsTest {

    static final JsonMapper JSON = JsonMapper.builder().build();

    @Test
    void addsTheJobsFieldsAndMergesIntoTheObjectsSpilloverBuilt() {
        JsonNode merged = PassThroughFields.merge(call("""
                {"TrainingJobName": "spl-1-1", "AlgorithmSpecification": {"TrainingImage": "img",
                 "TrainingInputMode": "File"}, "ResourceConfig": {"InstanceType": "ml.p5.48xlarge",
                 "InstanceCount": 2, "VolumeSizeInGB": 50}}"""), fields("""
                {"InputDataConfig": [{"ChannelName": "train"}], "CheckpointConfig": {"S3Uri": "s3://c"},
                 "AlgorithmSpecification": {"TrainingInputMode": "FastFile", "ContainerArguments": ["a"]},
                 "ResourceConfig": {"VolumeKmsKeyId": "k"}}"""), true);

        assertThat(merged).isEqualTo(JSON.readTree("""
                {"TrainingJobName": "spl-1-1", "AlgorithmSpecification": {"TrainingImage": "img",
                 "TrainingInputMode": "FastFile", "ContainerArguments": ["a"]}, "ResourceConfig": {
                 "InstanceType": "ml.p5.48xlarge", "InstanceCount": 2, "VolumeSizeInGB": 50, "VolumeKmsKeyId": "k"},
                 "InputDataConfig": [{"ChannelName": "train"}], "CheckpointConfig": {"S3Uri": "s3://c"}}"""));
    }

    @Test
    void leavesWhatSpilloverDecidesAsSpilloverDecidedIt() {
        String spillovers = """
                {"TrainingJobName": "spl-1-1", "RoleArn": "arn:aws:iam::111122223333:role/Checked",
                 "ResourceConfig": {"InstanceType": "ml.p4d.24xlarge", "InstanceCount": 4,
                   "TrainingPlanArn": "arn:plan"}, "StoppingCondition": {"MaxRuntimeInSeconds": 60}}""";

        JsonNode merged = PassThroughFields.merge(call(spillovers), fields("""
                {"TrainingJobName": "mine", "RoleArn": "arn:aws:iam::999999999999:role/Other",
                 "ResourceConfig": {"InstanceType": "ml.p5.48xlarge", "InstanceCount": 8, "TrainingPlanArn": "x",
                   "InstancePreferences": [{"InstanceType": "ml.p5.48xlarge"}], "InstanceGroups": []},
                 "StoppingCondition": {"MaxPendingTimeInSeconds": 7200}}"""), true);

        assertThat(merged).isEqualTo(JSON.readTree(spillovers));
    }

    @Test
    void anObjectSpilloverBuiltIsNotReplacedByAValueOfAnotherShape() {
        String spillovers = """
                {"ProcessingJobName": "spl-1-1", "ProcessingResources": {"ClusterConfig": {
                 "InstanceType": "ml.m5.xlarge", "InstanceCount": 1, "VolumeSizeInGB": 50}}}""";

        JsonNode merged = PassThroughFields.merge(call(spillovers), fields("""
                {"ProcessingResources": "big", "ProcessingJobName": "mine"}"""), false);

        assertThat(merged).isEqualTo(JSON.readTree(spillovers));
    }

    @Test
    void theJobsTagsComeBesideSpilloversWhoseKeysKeepSpilloversValues() {
        JsonNode merged = PassThroughFields.merge(call("""
                {"Tags": [{"Key": "spillover:job", "Value": "j"}, {"Key": "spillover:team", "Value": "t"}]}"""),
                fields("""
                {"Tags": [{"Key": "project", "Value": "llama"}, {"Key": "spillover:team", "Value": "other"}]}"""),
                true);

        assertThat(merged.get("Tags")).isEqualTo(JSON.readTree("""
                [{"Key": "project", "Value": "llama"}, {"Key": "spillover:job", "Value": "j"},
                 {"Key": "spillover:team", "Value": "t"}]"""));
    }

    private static ObjectNode call(String json) {
        return (ObjectNode) JSON.readTree(json);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> fields(String json) {
        return JSON.readValue(json, Map.class);
    }
}
