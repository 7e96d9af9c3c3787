package io.spillover.sagemakerapi;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillover.support.Api;
import io.spillover.support.ApiTest;
import io.spillover.support.SignedCalls;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Fuzzes every operation of the SageMaker endpoint as {@code ApiFuzzTest} fuzzes the REST API: from a valid body of
 * each operation, seeded mutations (a member dropped, replaced by a value of another type, an unknown one added, deep
 * inside too), broken JSON, other targets, wrong and missing signatures; it fails on any 5xx, any refusal that is not
 * SageMaker's error shape, and anything a refused call stored. {@code ./mvnw verify} sends 600;
 * {@code -Dspillover.fuzz.sagemaker.requests=20000 -Dspillover.fuzz.seed=N} is the long mode. A summary goes to
 * {@code target/fuzz/sagemaker-summary.json}.
 */
@TestPropertySource(properties = "spillover.security.max-failures=1000000000") // bad signatures are part of the input
class SageMakerFuzzTest extends ApiTest {

    static final int REQUESTS = Integer.getInteger("spillover.fuzz.sagemaker.requests", 600);
    static final long SEED = Long.getLong("spillover.fuzz.seed", 20261206L);
    static final String TYPE = "ml.t3.medium";
    static final String ROLE = "arn:aws:iam::111122223333:role/SpilloverJobs";

    /** What a refused call must leave as it was: the jobs, their entries and specs (tags), tokens and offerings. */
    static final String FINGERPRINT = """
            SELECT (SELECT count(*) FROM jobs) || '/' || (SELECT count(*) FROM job_entries)
                || '/' || (SELECT md5(coalesce(string_agg(id::text || status || spec::text, ',' ORDER BY id), ''))
                      FROM jobs)
                || '/' || (SELECT count(*) FROM api_tokens WHERE revoked_at IS NULL)
                || '/' || (SELECT md5(coalesce(string_agg(region || instance_type || source || total || limit_source,
                      ',' ORDER BY id), '')) FROM offerings)""";

    @Autowired
    JdbcClient jdbc;

    @Test
    void noCallMakesItAnswer5xxOrStoreWhatItRefused() throws IOException {
        capacity(TYPE, 0);
        String team = team(Map.of(TYPE, 2));
        JsonNode token = expect(api.post("/api/v1/teams/" + team + "/tokens", Map.of("name", "fuzz", "role",
                "MEMBER", "accessKey", true)), 201).json();
        var calls = new SignedCalls(port(), token.get("accessKeyId").asString(),
                token.get("secretAccessKey").asString(), "us-east-1").from("203.0.113.7");
        Map<String, ObjectNode> valid = validBodies();
        for (String operation : List.of("CreateTrainingJob", "CreateProcessingJob")) {
            assertThat(calls.call(operation, valid.get(operation).toString()).status()).isEqualTo(200);
        }
        var random = new Random(SEED);
        var statuses = new TreeMap<Integer, Integer>();
        var codes = new TreeMap<String, Integer>();
        var failures = new ArrayList<String>();
        int storedByRefusals = 0;
        List<String> operations = List.copyOf(valid.keySet());
        for (int i = 0; i < REQUESTS; i++) {
            String operation = operations.get(i % operations.size());
            String body = mutated(valid.get(operation), random);
            int kind = random.nextInt(20);
            String before = jdbc.sql(FINGERPRINT).query(String.class).single();
            Api.Response response = switch (kind) {
                case 0 -> calls.withSecret("x" + token.get("secretAccessKey").asString()).call(operation, body);
                case 1 -> calls.send("SageMaker." + operation, body, false);
                case 2 -> calls.send(random.nextBoolean() ? "SageMaker.DeleteTrainingJob"
                        : random.nextBoolean() ? operation : "sagemaker." + operation.toLowerCase(), body, true);
                case 3 -> calls.send(null, body, true);
                default -> calls.call(operation, body);
            };
            statuses.merge(response.status(), 1, Integer::sum);
            String described = operation + " (" + kind + ") " + abbreviate(body) + " -> " + response.status() + " "
                    + abbreviate(response.text());
            if (response.status() >= 500) {
                failures.add(described);
                continue;
            }
            if (response.status() != 200) {
                String code = response.json().path("__type").asString("");
                codes.merge(code, 1, Integer::sum);
                if (code.isEmpty() || !response.json().path("message").isString()
                        || !String.valueOf(response.header("Content-Type")).startsWith("application/x-amz-json-1.1")) {
                    failures.add("not SageMaker's error shape: " + described);
                }
                if (!jdbc.sql(FINGERPRINT).query(String.class).single().equals(before)) {
                    storedByRefusals++;
                    failures.add("stored something: " + described);
                }
            }
        }
        assertThat(api.get("/actuator/health").status()).isEqualTo(200);
        writeSummary(statuses, codes, storedByRefusals);
        assertThat(statuses.getOrDefault(200, 0)).as("valid calls among them").isGreaterThan(REQUESTS / 20);
        assertThat(failures).as("calls that broke a rule (seed %d)", SEED).isEmpty();
    }

    /** A body of each operation that the endpoint takes for the fuzzing team. */
    private static Map<String, ObjectNode> validBodies() {
        var bodies = new LinkedHashMap<String, ObjectNode>();
        bodies.put("CreateTrainingJob", json(Map.of("TrainingJobName", "fz-train", "RoleArn", ROLE,
                "AlgorithmSpecification", Map.of("TrainingImage", "image:1", "TrainingInputMode", "File"),
                "OutputDataConfig", Map.of("S3OutputPath", "s3://bucket/out"),
                "ResourceConfig", Map.of("InstancePreferences", List.of(Map.of("InstanceType", TYPE,
                        "InstanceCount", 1)), "VolumeSizeInGB", 10),
                "StoppingCondition", Map.of("MaxRuntimeInSeconds", 600),
                "Tags", List.of(Map.of("Key", "k", "Value", "v")))));
        bodies.put("CreateProcessingJob", json(Map.of("ProcessingJobName", "fz-prep", "RoleArn", ROLE,
                "AppSpecification", Map.of("ImageUri", "image:1"),
                "ProcessingResources", Map.of("ClusterConfig", Map.of("InstanceType", TYPE, "InstanceCount", 1,
                        "VolumeSizeInGB", 10)))));
        bodies.put("DescribeTrainingJob", json(Map.of("TrainingJobName", "fz-train")));
        bodies.put("DescribeProcessingJob", json(Map.of("ProcessingJobName", "fz-prep")));
        bodies.put("ListTrainingJobs", json(Map.of("MaxResults", 5, "NameContains", "fz", "StatusEquals",
                "InProgress", "SortBy", "Name", "SortOrder", "Ascending", "CreationTimeAfter", 1.7e9)));
        bodies.put("ListProcessingJobs", json(Map.of("MaxResults", 5, "LastModifiedTimeBefore", 4.0e9)));
        bodies.put("AddTags", json(Map.of("ResourceArn", "arn:aws:sagemaker:us-east-1:000000000000:training-job/"
                + "fz-train", "Tags", List.of(Map.of("Key", "team-tag", "Value", "x")))));
        bodies.put("ListTags", json(Map.of("ResourceArn",
                "arn:aws:sagemaker:us-east-1:000000000000:processing-job/fz-prep")));
        // stops come last in their cycle, after the jobs' reads
        bodies.put("StopTrainingJob", json(Map.of("TrainingJobName", "fz-train-x")));
        bodies.put("StopProcessingJob", json(Map.of("ProcessingJobName", "fz-prep-x")));
        return bodies;
    }

    /** The body as it is, or changed in one of the ways a client or an attacker might change it. */
    private static String mutated(ObjectNode valid, Random random) {
        ObjectNode body = valid.deepCopy();
        switch (random.nextInt(10)) {
            case 0 -> {
                return valid.toString();
            }
            case 1 -> {
                String text = valid.toString();
                return text.substring(0, random.nextInt(text.length()));
            }
            case 2 -> {
                return List.of("", "null", "[]", "\"a string\"", "42", "{\"\": {}}", "{\"a\u0000\": 1}",
                        "{".repeat(2000)).get(random.nextInt(8));
            }
            case 3 -> body.set("Unknown" + random.nextInt(3), strange(random));
            case 4 -> {
                if (body.size() > 0) {
                    body.remove(body.propertyNames().stream().toList().get(random.nextInt(body.size())));
                }
            }
            default -> mutateSomewhere(body, random);
        }
        if (random.nextInt(4) == 0 && body.has("TrainingJobName")) {
            body.put("TrainingJobName", "fz-" + Integer.toString(random.nextInt(1_000_000), 36));
        }
        return body.toString();
    }

    /** Replaces one value, at any depth, with a strange one. */
    private static void mutateSomewhere(JsonNode node, Random random) {
        if (node instanceof ObjectNode object && object.size() > 0) {
            String name = object.propertyNames().stream().toList().get(random.nextInt(object.size()));
            JsonNode child = object.get(name);
            if ((child.isObject() || child.isArray()) && random.nextBoolean()) {
                mutateSomewhere(child, random);
            } else {
                object.set(name, strange(random));
            }
        } else if (node instanceof ArrayNode array && !array.isEmpty()) {
            int index = random.nextInt(array.size());
            if ((array.get(index).isObject() || array.get(index).isArray()) && random.nextBoolean()) {
                mutateSomewhere(array.get(index), random);
            } else {
                array.set(index, strange(random));
            }
        }
    }

    private static JsonNode strange(Random random) {
        JsonNodeFactory nodes = JsonNodeFactory.instance;
        return switch (random.nextInt(16)) {
            case 0 -> nodes.nullNode();
            case 1 -> nodes.numberNode(-1);
            case 2 -> nodes.numberNode(Long.MAX_VALUE);
            case 3 -> nodes.numberNode(1e308);
            case 4 -> nodes.numberNode(0.5);
            case 5 -> nodes.booleanNode(true);
            case 6 -> nodes.stringNode("");
            case 7 -> nodes.stringNode("x".repeat(5000));
            case 8 -> nodes.stringNode("nul\u0000inside");
            case 9 -> nodes.stringNode("ml.p9.mega");
            case 10 -> nodes.stringNode("../../etc/passwd");
            case 11 -> nodes.arrayNode().add(nodes.objectNode()).add(nodes.nullNode());
            case 12 -> nodes.objectNode().put("InstanceType", TYPE).put("InstanceCount", 0);
            case 13 -> nodes.stringNode("arn:aws:sagemaker:us-east-1:000000000000:training-job/" + "z".repeat(70));
            case 14 -> nodes.arrayNode();
            default -> nodes.stringNode("ünïcödé 🚀");
        };
    }

    private static ObjectNode json(Map<String, ?> body) {
        return (ObjectNode) Api.JSON.valueToTree(body);
    }

    private static String abbreviate(String text) {
        return text == null ? "" : text.length() > 300 ? text.substring(0, 300) + "..." : text;
    }

    private void writeSummary(Map<Integer, Integer> statuses, Map<String, Integer> codes, int storedByRefusals)
            throws IOException {
        var summary = new LinkedHashMap<String, Object>();
        summary.put("seed", SEED);
        summary.put("requests", REQUESTS);
        summary.put("statuses", statuses);
        summary.put("errorCodes", codes);
        summary.put("storedByRefusals", storedByRefusals);
        Path file = Path.of("target", "fuzz", "sagemaker-summary.json");
        Files.createDirectories(file.getParent());
        Files.writeString(file, Api.JSON.writerWithDefaultPrettyPrinter().writeValueAsString(summary));
        System.out.println("SageMaker endpoint fuzzing: " + summary);
    }
}
