package io.spillover.providers.sagemaker;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillover.SpilloverApplication;
import io.spillover.support.Api;
import io.spillover.support.TestDatabase;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;

/**
 * Spillover under the SageMaker provider with a region (and credentials) and nothing else: it starts, and the
 * role and output location its jobs need come from their team, set by an admin. A job with neither anywhere is
 * refused at submission.
 */
class RegionOnlyStartTest {

    private static final String ADMIN_TOKEN = "test-bootstrap-admin-token";

    static {
        System.setProperty("aws.accessKeyId", "AKIAIOSFODNN7EXAMPLE");
        System.setProperty("aws.secretAccessKey", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY");
    }

    @Test
    void startsWithOnlyARegionAndRunsJobsAsTheirTeamsRole() {
        FakeSageMaker sagemaker = new FakeSageMaker();
        sagemaker.quota("us-east-1", "ml.m5.xlarge", "training", 2); // capacity from the account, no fleet table
        try (ConfigurableApplicationContext app = new SpringApplicationBuilder(SpilloverApplication.class)
                .profiles("test")
                .run("--spring.datasource.url=" + TestDatabase.newDatabase(), "--spring.datasource.username=postgres",
                        "--server.port=0", "--spillover.provider=sagemaker", "--spillover.sagemaker.region=us-east-1",
                        "--spillover.sagemaker.endpoint-override=" + sagemaker.endpoint(),
                        "--spillover.sagemaker.quota-endpoint-override=" + sagemaker.endpoint())) {
            Api api = new Api(((WebServerApplicationContext) app).getWebServer().getPort(), ADMIN_TOKEN);
            assertThat(api.put("/api/v1/admin/teams/solo", Map.of("displayName", "Solo")).status()).isEqualTo(201);
            assertThat(api.put("/api/v1/admin/teams/solo/quotas", Map.of("instanceLimits", Map.of("ml.m5.xlarge", 1)))
                    .status()).isEqualTo(200);

            Api.Response refused = api.post("/api/v1/teams/solo/jobs", job("before"));
            String role = "arn:aws:iam::111122223333:role/solo-jobs";
            assertThat(api.put("/api/v1/admin/teams/solo/sagemaker", Map.of("roleArn", role,
                    "outputS3Uri", "s3://solo-artifacts/out")).status()).isEqualTo(200);
            Api.Response accepted = api.post("/api/v1/teams/solo/jobs", job("after"));

            assertThat(refused.status()).isEqualTo(400);
            assertThat(fields(refused.json())).containsExactly("sagemaker.roleArn", "sagemaker.outputS3Uri");
            assertThat(accepted.status()).as(accepted.text()).isEqualTo(201);
            assertThat(accepted.json().get("sagemaker").get("roleArn").asString()).isEqualTo(role);
            assertThat(accepted.json().get("sagemaker").get("outputS3Uri").asString())
                    .isEqualTo("s3://solo-artifacts/out");
        } finally {
            sagemaker.stop();
        }
    }

    private static Map<String, Object> job(String name) {
        var body = new LinkedHashMap<String, Object>();
        body.put("name", name);
        body.put("kind", "TRAINING");
        body.put("instancePreferences", List.of(Api.entry("ml.m5.xlarge", 1)));
        body.put("container", Map.of("image", "111122223333.dkr.ecr.us-east-1.amazonaws.com/train:1"));
        return body;
    }

    private static List<String> fields(JsonNode problem) {
        var fields = new ArrayList<String>();
        problem.get("errors").forEach(e -> fields.add(e.get("field").asString()));
        return fields;
    }
}
