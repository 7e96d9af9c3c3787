package io.spillover.system;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillover.SpilloverApplication;
import io.spillover.support.Api;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;

/** With no database URL, Spillover runs its own PostgreSQL under the data directory, kept across restarts. */
class EmbeddedDatabaseTest {

    static final String TOKEN = "embedded-test-admin-token";

    @TempDir
    Path dataDir;

    @Test
    void startsItsOwnDatabaseWithDemoTeamsAndKeepsDataAcrossRestarts() {
        try (ConfigurableApplicationContext first = start()) {
            Api api = api(first);
            assertThat(api.get("/api/v1/admin/teams/vision").status()).isEqualTo(200);
            assertThat(api.put("/api/v1/admin/teams/kept", Map.of("displayName", "Kept")).status()).isEqualTo(201);
            assertThat(api.post("/api/v1/teams/vision/jobs", Map.of("name", "interrupted", "kind", "TRAINING",
                    "instanceCount", 1, "instancePreferences", List.of(Map.of("instanceType", "ml.m5.xlarge")),
                    "local", Map.of("runtimeSeconds", 3600))).status()).isEqualTo(201);
            awaitStatus(api, "RUNNING");
        }
        assertThat(dataDir.resolve("postgres/PG_VERSION")).exists();

        try (ConfigurableApplicationContext second = start()) {
            Api api = api(second);
            assertThat(api.get("/api/v1/admin/teams/kept").json().get("displayName").asString()).isEqualTo("Kept");
            JsonNode lost = awaitStatus(api, "FAILED");
            assertThat(lost.get("statusReason").asString()).isEqualTo("LOST_BY_PROVIDER");
            assertThat(api.get("/api/v1/admin/teams/vision").json().get("usage").get("jobsInUse").asInt()).isZero();
        }
    }

    /** The local provider's jobs end with its process; the next start finds them gone and frees their capacity. */
    private static JsonNode awaitStatus(Api api, String status) {
        return Awaitility.await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
                .until(() -> api.get("/api/v1/teams/vision/jobs/interrupted").json(),
                        job -> job.get("status").asString().equals(status));
    }

    private ConfigurableApplicationContext start() {
        return new SpringApplicationBuilder(SpilloverApplication.class)
                .run("--spillover.data-dir=" + dataDir, "--server.port=0", "--spring.main.banner-mode=off",
                        "--spillover.bootstrap-admin-token=" + TOKEN);
    }

    private static Api api(ConfigurableApplicationContext context) {
        return new Api(((WebServerApplicationContext) context).getWebServer().getPort(), TOKEN);
    }
}
