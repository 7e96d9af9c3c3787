package io.spillover.deploy;

import static io.spillover.deploy.Manifests.at;
import static io.spillover.deploy.Manifests.compose;
import static io.spillover.deploy.Manifests.composeReplicas;
import static io.spillover.deploy.Manifests.environment;
import static io.spillover.deploy.Manifests.list;
import static io.spillover.deploy.Manifests.map;
import static io.spillover.deploy.Manifests.string;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The compose file runs two replicas of the image on PostgreSQL 17 as production does: they start once the
 * database is healthy, count as healthy once ready, and take their secrets from deploy/.env, never from a
 * default written in the file.
 */
class ComposeFileTest {

    /** {@code ${NAME:?message}}: compose refuses to start while NAME is unset or empty. */
    private static final String REQUIRED = "\\$\\{[A-Z_]+:\\?[^}]+}";

    private final Map<String, Object> postgres = map(compose(), "services.postgres");
    private final Map<String, Map<String, Object>> replicas = composeReplicas();

    @Test
    void runsTwoReplicasOnPostgres17WithItsDataInAVolume() {
        assertThat(replicas).hasSize(2);
        assertThat(string(postgres, "image")).startsWith("postgres:17");
        String volume = ((String) list(postgres, "volumes").get(0)).split(":")[0];
        assertThat(map(compose(), "volumes")).containsKey(volume);
    }

    @Test
    void replicasStartOnceTheDatabaseIsHealthy() {
        assertThat(string(postgres, "healthcheck.test")).contains("pg_isready");
        replicas.values().forEach(replica ->
                assertThat(at(replica, "depends_on.postgres.condition")).isEqualTo("service_healthy"));
    }

    @Test
    void replicasPointAtTheComposeDatabase() {
        Map<String, String> database = environment(postgres);
        replicas.values().forEach(replica -> {
            Map<String, String> settings = environment(replica);
            assertThat(settings.get("SPRING_DATASOURCE_URL"))
                    .isEqualTo("jdbc:postgresql://postgres:5432/" + database.get("POSTGRES_DB"));
            assertThat(settings.get("SPRING_DATASOURCE_USERNAME")).isEqualTo(database.get("POSTGRES_USER"));
            assertThat(settings.get("SPRING_DATASOURCE_PASSWORD")).isEqualTo(database.get("POSTGRES_PASSWORD"));
        });
    }

    @Test
    void aReplicaIsHealthyWhenItsReadinessProbeSaysUp() {
        replicas.values().forEach(replica -> {
            String check = String.join(" ", list(replica, "healthcheck.test").stream().map(String::valueOf).toList());
            assertThat(check).contains(Endpoints.READINESS, "/" + Endpoints.SERVER_PORT + " ", "\"status\":\"UP\"");
            assertThat(environment(replica)).containsEntry("SERVER_PORT", Endpoints.SERVER_PORT);
            assertThat(list(replica, "ports")).allSatisfy(p -> assertThat((String) p).endsWith(":" + Endpoints.SERVER_PORT));
        });
    }

    @Test
    void secretsComeFromTheEnvironmentWithNoDefault() throws IOException {
        assertThat(environment(postgres).get("POSTGRES_PASSWORD")).matches(REQUIRED);
        replicas.values().forEach(replica -> {
            assertThat(environment(replica).get("SPRING_DATASOURCE_PASSWORD")).matches(REQUIRED);
            assertThat(environment(replica).get("SPILLOVER_BOOTSTRAP_ADMIN_TOKEN")).matches(REQUIRED);
            assertThat(environment(replica).get("SPILLOVER_WEBHOOKS_SECRET_KEY")).matches(REQUIRED);
        });

        Map<String, String> example = Files.readAllLines(Path.of("deploy", ".env.example")).stream()
                .filter(line -> !line.isBlank() && !line.startsWith("#"))
                .collect(Collectors.toMap(line -> line.split("=", 2)[0], line -> line.split("=", 2)[1]));
        assertThat(example.keySet()).containsExactlyInAnyOrder("POSTGRES_PASSWORD", "SPILLOVER_BOOTSTRAP_ADMIN_TOKEN",
                "SPILLOVER_WEBHOOKS_SECRET_KEY");
        assertThat(example.values()).allSatisfy(value -> assertThat(value).isEqualTo("CHANGE-ME"));
        assertThat(Files.readAllLines(Path.of(".gitignore"))).contains("deploy/.env");
    }

    @Test
    void replicasAreBuiltFromTheDockerfile() {
        replicas.values().forEach(replica -> {
            assertThat(string(replica, "build.context")).isEqualTo("..");
            assertThat(Path.of("deploy").resolve(string(replica, "build.context"))
                    .resolve(string(replica, "build.dockerfile")).normalize()).isEqualTo(Dockerfile.PATH);
        });
        assertThat(List.copyOf(replicas.keySet())).containsExactly("spillover-1", "spillover-2");
    }
}
