package io.spillover.system;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillover.SpilloverApplication;
import io.spillover.support.Api;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;

/**
 * Spillover on an external PostgreSQL that goes away and comes back: while it is down every request answers
 * 503 with a problem document and nothing is stored, health says DOWN, and once it is back the service takes
 * requests and places jobs again by itself.
 */
@ExtendWith(OutputCaptureExtension.class)
class DatabaseOutageTest {

    static final String TOKEN = "outage-test-admin-token";

    @TempDir
    Path dir;
    private EmbeddedPostgres postgres;
    private ConfigurableApplicationContext spillover;

    @AfterEach
    void stop() throws IOException {
        if (spillover != null) {
            spillover.close();
        }
        if (postgres != null) {
            postgres.close();
        }
    }

    @Test
    void answers503WhileTheDatabaseIsDownAndResumesByItselfWhenItReturns(CapturedOutput output) throws Exception {
        int port = freePort();
        postgres = database(port);
        try (Connection connection = postgres.getPostgresDatabase().getConnection()) {
            connection.createStatement().execute("CREATE DATABASE outage");
        }
        spillover = new SpringApplicationBuilder(SpilloverApplication.class).run(
                "--spring.datasource.url=" + postgres.getJdbcUrl("postgres", "outage"),
                "--spring.datasource.username=postgres", "--spillover.data-dir=" + dir.resolve("data"),
                "--server.port=0", "--spring.main.banner-mode=off", "--spillover.bootstrap-admin-token=" + TOKEN);
        Api api = new Api(((WebServerApplicationContext) spillover).getWebServer().getPort(), TOKEN);
        assertThat(api.put("/api/v1/admin/teams/vision", Map.of("displayName", "Vision")).status()).isEqualTo(201);
        assertThat(api.put("/api/v1/admin/teams/vision/quotas", Map.of("instanceLimits", Map.of("ml.m5.xlarge", 4)))
                .status()).isEqualTo(200);
        assertThat(api.post("/api/v1/teams/vision/jobs", job("before")).status()).isEqualTo(201);
        awaitStatus(api, "before", "RUNNING");

        postgres.close();
        postgres = null;

        Api.Response submitted = api.post("/api/v1/teams/vision/jobs", job("during"));
        assertThat(submitted.status()).isEqualTo(503);
        assertThat(submitted.header("Content-Type")).startsWith("application/problem+json");
        assertThat(submitted.json().get("detail").asString())
                .isEqualTo("the database cannot be reached; nothing was changed, try again shortly");
        assertThat(submitted.header("Retry-After")).isEqualTo("5");
        Api.Response listed = api.get("/api/v1/teams/vision/jobs");
        assertThat(listed.status()).isEqualTo(503);
        assertThat(listed.text()).doesNotContain("Exception").doesNotContain("at org.");
        Api.Response health = api.get("/actuator/health");
        assertThat(health.status()).isEqualTo(503);
        assertThat(health.json().get("status").asString()).isEqualTo("DOWN");
        assertThat(api.get("/actuator/health/liveness").status()).as("liveness: a restart would not help").isEqualTo(200);

        postgres = database(port);

        Awaitility.await("the service healthy again").atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(200)).until(() -> api.get("/actuator/health").status() == 200);
        assertThat(api.get("/api/v1/teams/vision/jobs/during").status()).as("the refused submission").isEqualTo(404);
        assertThat(api.post("/api/v1/teams/vision/jobs", job("after")).status()).isEqualTo(201);
        awaitStatus(api, "after", "RUNNING");
        assertThat(awaitStatus(api, "before", "RUNNING").get("attempt").asInt()).isEqualTo(1);
        assertThat(output.getAll()).as("what the service logged").doesNotContain(" ERROR ");
    }

    private EmbeddedPostgres database(int port) throws IOException {
        return EmbeddedPostgres.builder().setDataDirectory(dir.resolve("postgres")).setCleanDataDirectory(false)
                .setPort(port).start();
    }

    private static Map<String, Object> job(String name) {
        return Map.of("name", name, "kind", "TRAINING", "instanceCount", 1,
                "instancePreferences", List.of(Map.of("instanceType", "ml.m5.xlarge")),
                "local", Map.of("runtimeSeconds", 3600));
    }

    private static JsonNode awaitStatus(Api api, String job, String status) {
        return Awaitility.await(job + " " + status).atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
                .until(() -> api.get("/api/v1/teams/vision/jobs/" + job).json(),
                        found -> found.has("status") && found.get("status").asString().equals(status));
    }

    private static int freePort() throws IOException {
        try (var socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
