package io.spillover.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import io.spillover.support.Api;
import io.spillover.support.TestDatabase;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.util.FileSystemUtils;

/**
 * Two instances of the packaged jar on one database with the default {@code local} provider, whose jobs run in
 * the process that launched them. The leader is killed with SIGKILL while its jobs run: the instance that
 * takes over finds them gone from its provider and places them again as new attempts, so every job completes.
 */
class LocalFailoverIT {

    static final String ADMIN = "local-failover-admin-token";
    static final Path LOGS = Path.of("target", "local-failover");
    static final int JOBS = 6;

    private final HikariDataSource dataSource = new HikariDataSource();
    private JdbcClient database;
    private Replicas replicas;

    @BeforeEach
    void startTwoInstancesOnOneDatabase() throws IOException {
        FileSystemUtils.deleteRecursively(LOGS);
        Files.createDirectories(LOGS);
        String url = TestDatabase.newDatabase();
        dataSource.setJdbcUrl(url);
        dataSource.setUsername("postgres");
        database = JdbcClient.create(dataSource);
        replicas = new Replicas(LOGS, List.of("-Xmx384m", "-XX:TieredStopAtLevel=1", "-Xshare:auto"), List.of(
                "--spring.datasource.url=" + url,
                "--spring.datasource.username=postgres",
                "--spillover.bootstrap-admin-token=" + ADMIN,
                "--spillover.data-dir=" + LOGS.toAbsolutePath().resolve("data")));
    }

    @AfterEach
    void stopThem() {
        replicas.close();
        dataSource.close();
    }

    @Test
    void jobsRunningOnAKilledInstanceArePlacedAgainAndCompleteOnTheOther() throws Exception {
        CompletableFuture.allOf(replicas.start(), replicas.start()).get(Replicas.STARTUP.toSeconds(), TimeUnit.SECONDS);
        String leader = new LeaderLock(database).awaitHolder(Duration.ofSeconds(10));
        Api admin = replicas.next(null).api(ADMIN);
        expect(admin.put("/api/v1/admin/teams/vision", Map.of("displayName", "Vision")), 201);
        expect(admin.put("/api/v1/admin/teams/vision/quotas", Map.of("instanceLimits", Map.of("ml.m5.xlarge", JOBS))),
                200);
        IntStream.range(0, JOBS).forEach(i -> expect(admin.post("/api/v1/teams/vision/jobs", Map.of(
                "name", "job-" + i, "kind", "TRAINING", "instanceCount", 1,
                "instancePreferences", List.of(Map.of("instanceType", "ml.m5.xlarge")),
                "local", Map.of("runtimeSeconds", 8))), 201));
        await("every job running on " + leader).atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
                .until(() -> count("status = 'RUNNING'") == JOBS);

        replicas.kill(leader);
        Api survivor = replicas.next(null).api(ADMIN);
        await("every job completed on the survivor").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .until(() -> count("status = 'COMPLETED'") == JOBS);

        for (int i = 0; i < JOBS; i++) {
            var job = survivor.get("/api/v1/teams/vision/jobs/job-" + i).json();
            assertThat(job.get("attempt").asInt()).as("job-%d's attempts", i).isEqualTo(2);
            assertThat(job.get("transitions").valueStream().map(t -> t.get("reason").asString()))
                    .as("job-%d's history", i)
                    .containsSubsequence("LAUNCHED", "ATTEMPT_LOST", "PLACED", "LAUNCHED", "COMPLETED");
        }
        assertThat(database.sql("SELECT sum(in_use) FROM offerings").query(Integer.class).single())
                .as("instances still counted in use").isZero();
        assertThat(replicas.errors()).as("errors the instances logged").isEmpty();
    }

    private int count(String where) {
        return database.sql("SELECT count(*) FROM jobs WHERE " + where).query(Integer.class).single();
    }

    private static Api.Response expect(Api.Response response, int status) {
        assertThat(response.status()).as(response.text()).isEqualTo(status);
        return response;
    }
}
