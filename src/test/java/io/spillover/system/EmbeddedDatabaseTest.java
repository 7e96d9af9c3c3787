package io.spillover.system;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillover.SpilloverApplication;
import io.spillover.support.Api;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/** With no database URL, Spillover runs its own PostgreSQL under the data directory, kept across restarts. */
class EmbeddedDatabaseTest {

    @TempDir
    Path dataDir;

    @Test
    void startsItsOwnDatabaseWithDemoTeamsAndKeepsDataAcrossRestarts() {
        try (ConfigurableApplicationContext first = start()) {
            Api api = api(first);
            assertThat(api.get("/api/v1/admin/teams/vision").status()).isEqualTo(200);
            assertThat(api.put("/api/v1/admin/teams/kept", Map.of("displayName", "Kept")).status()).isEqualTo(201);
        }
        assertThat(dataDir.resolve("postgres/PG_VERSION")).exists();

        try (ConfigurableApplicationContext second = start()) {
            Api api = api(second);
            assertThat(api.get("/api/v1/admin/teams/kept").json().get("displayName").asString()).isEqualTo("Kept");
        }
    }

    private ConfigurableApplicationContext start() {
        return new SpringApplicationBuilder(SpilloverApplication.class)
                .run("--spillover.data-dir=" + dataDir, "--server.port=0", "--spring.main.banner-mode=off");
    }

    private static Api api(ConfigurableApplicationContext context) {
        return new Api(((WebServerApplicationContext) context).getWebServer().getPort());
    }
}
