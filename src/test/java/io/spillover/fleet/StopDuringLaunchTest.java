package io.spillover.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.spillover.SpilloverApplication;
import io.spillover.providers.sagemaker.FakeSageMaker;
import io.spillover.scheduling.Leadership;
import io.spillover.support.Api;
import io.spillover.support.TestDatabase;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;

/**
 * Two instances on SageMaker: a job stopped through the instance that does not schedule while the scheduling
 * one is still launching it. The stop finds nothing on SageMaker yet and ends the job; the launch that gets
 * through afterwards must not leave a SageMaker job running that nothing tracks.
 */
class StopDuringLaunchTest {

    private static final String ADMIN_TOKEN = "stop-during-launch-admin-token";
    private static final String TYPE = "ml.g6e.48xlarge";
    private static final String IMAGE = "111122223333.dkr.ecr.us-east-1.amazonaws.com/train:1";
    private static final FakeSageMaker SAGEMAKER;
    private static ConfigurableApplicationContext leader;
    private static ConfigurableApplicationContext standby;

    static {
        System.setProperty("aws.accessKeyId", "AKIAIOSFODNN7EXAMPLE");
        System.setProperty("aws.secretAccessKey", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY");
        SAGEMAKER = new FakeSageMaker();
    }

    @BeforeAll
    static void startTwoInstances() {
        String database = TestDatabase.newDatabase();
        leader = start(database);
        await().atMost(Duration.ofSeconds(10)).until(() -> leader.getBean(Leadership.class).leading());
        standby = start(database);
    }

    private static ConfigurableApplicationContext start(String database) {
        return new SpringApplicationBuilder(SpilloverApplication.class).profiles("test").run(
                "--spring.datasource.url=" + database, "--spring.datasource.username=postgres", "--server.port=0",
                "--spillover.bootstrap-admin-token=" + ADMIN_TOKEN,
                "--spillover.provider=sagemaker",
                "--spillover.sagemaker.region=us-east-1",
                "--spillover.sagemaker.role-arn=arn:aws:iam::111122223333:role/SpilloverJobs",
                "--spillover.sagemaker.output-s3-uri=s3://spillover-artifacts/out",
                "--spillover.sagemaker.endpoint-override=" + SAGEMAKER.endpoint(),
                "--spillover.sagemaker.quota-endpoint-override=" + SAGEMAKER.endpoint(),
                "--spillover.sagemaker.status-interval=100ms",
                "--spillover.sagemaker.plan-sync-interval=1h",
                "--spillover.sagemaker.retry.base-delay=10ms",
                "--spillover.sagemaker.retry.max-delay=50ms",
                "--spillover.sagemaker.fleet[0].instance-type=" + TYPE,
                "--spillover.sagemaker.fleet[0].on-demand-capacity=1");
    }

    private static int port(ConfigurableApplicationContext context) {
        return ((WebServerApplicationContext) context).getWebServer().getPort();
    }

    @AfterAll
    static void stop() {
        standby.close();
        leader.close();
        SAGEMAKER.stop();
    }

    @Test
    void aJobStoppedElsewhereWhileItIsLaunchedIsStoppedOnSageMakerToo() {
        var api = new Api(port(standby), ADMIN_TOKEN);
        expect(api.put("/api/v1/admin/teams/vision", Map.of("displayName", "Vision")), 201);
        expect(api.put("/api/v1/admin/teams/vision/quotas", Map.of("instanceLimits", Map.of(TYPE, 1))), 200);
        var stoppedFirst = new AtomicReference<JsonNode>();
        // The leader's first create is held until the user's stop, taken by the standby, has ended the job.
        SAGEMAKER.beforeNextCreate(name -> {
            expect(api.post("/api/v1/teams/vision/jobs/train/stop", Map.of()), 202, 200);
            stoppedFirst.set(await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
                    .until(() -> api.get("/api/v1/teams/vision/jobs/train").json(),
                            job -> job.get("status").asString().equals("STOPPED")));
        });

        expect(api.post("/api/v1/teams/vision/jobs", Map.of("name", "train", "kind", "TRAINING",
                "instancePreferences", List.of(Api.entry(TYPE, 1)), "container", Map.of("image", IMAGE))), 201);

        String made = await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(20))
                .until(() -> SAGEMAKER.creates().stream().filter(FakeSageMaker.Create::created).findFirst(),
                        java.util.Optional::isPresent).orElseThrow().name();
        assertThat(stoppedFirst.get()).as("the job had ended before SageMaker made it").isNotNull();
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
                .untilAsserted(() -> assertThat(SAGEMAKER.changes()).filteredOn(c -> c.name().equals(made))
                        .extracting(FakeSageMaker.StatusChange::status).contains("Stopped"));
    }

    private static Api.Response expect(Api.Response response, int... statuses) {
        assertThat(statuses).as(response.text()).contains(response.status());
        return response;
    }
}
