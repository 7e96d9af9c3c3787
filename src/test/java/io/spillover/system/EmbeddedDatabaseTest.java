package io.spillover.system;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillover.SpilloverApplication;
import io.spillover.support.Api;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;

/**
 * With no database URL, Spillover runs its own PostgreSQL under the data directory, kept across restarts. The
 * local provider's jobs end with its process: the next start finds them gone, frees their capacity and places
 * them again as new attempts, up to {@code spillover.jobs.lost-attempt-retries}; then they fail.
 */
class EmbeddedDatabaseTest {

    static final String TOKEN = "embedded-test-admin-token";

    @TempDir
    Path dataDir;

    @Test
    void startsItsOwnDatabaseWithDemoTeamsKeepsDataAcrossRestartsAndPlacesLostJobsAgain() {
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

        try (ConfigurableApplicationContext second = start("--spillover.jobs.lost-attempt-retries=1")) {
            Api api = api(second);
            assertThat(api.get("/api/v1/admin/teams/kept").json().get("displayName").asString()).isEqualTo("Kept");
            JsonNode again = awaitRunning(api, 2);
            assertThat(again.get("transitions").valueStream().map(t -> t.get("reason").asString()))
                    .containsSubsequence("LAUNCHED", "ATTEMPT_LOST", "PLACED", "LAUNCHED");
            assertThat(again.get("transitions").valueStream().filter(t -> t.get("reason").asString()
                    .equals("ATTEMPT_LOST")).findFirst().orElseThrow().get("message").asString())
                    .isEqualTo("attempt 1 was lost: the provider no longer knows it; placed again as a new attempt"
                            + " (retry 1 of 1)");
        }

        try (ConfigurableApplicationContext third = start("--spillover.jobs.lost-attempt-retries=1")) {
            Api api = api(third);
            JsonNode lost = awaitStatus(api, "FAILED");
            assertThat(lost.get("statusReason").asString()).isEqualTo("LOST_BY_PROVIDER");
            assertThat(lost.get("attempt").asInt()).isEqualTo(2);
            assertThat(api.get("/api/v1/admin/teams/vision").json().get("usage").get("jobsInUse").asInt()).isZero();
        }
    }

    /** The job, once it runs as the attempt given. */
    private static JsonNode awaitRunning(Api api, int attempt) {
        return Awaitility.await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
                .until(() -> api.get("/api/v1/teams/vision/jobs/interrupted").json(),
                        job -> job.get("status").asString().equals("RUNNING") && job.get("attempt").asInt() == attempt);
    }

    private static JsonNode awaitStatus(Api api, String status) {
        return Awaitility.await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
                .until(() -> api.get("/api/v1/teams/vision/jobs/interrupted").json(),
                        job -> job.get("status").asString().equals(status));
    }

    private ConfigurableApplicationContext start(String... more) {
        var arguments = new ArrayList<>(List.of("--spillover.data-dir=" + dataDir, "--server.port=0",
                "--spring.main.banner-mode=off", "--spillover.bootstrap-admin-token=" + TOKEN));
        arguments.addAll(List.of(more));
        return new SpringApplicationBuilder(SpilloverApplication.class).run(arguments.toArray(String[]::new));
    }

    private static Api api(ConfigurableApplicationContext context) {
        return new Api(((WebServerApplicationContext) context).getWebServer().getPort(), TOKEN);
    }
}
