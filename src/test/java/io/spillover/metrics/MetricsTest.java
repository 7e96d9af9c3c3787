package io.spillover.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillover.security.TeamRole;
import io.spillover.support.ApiTest;
import java.time.Duration;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/** Prometheus sees placements, the queue, utilization and leadership; only platform admins may scrape. */
class MetricsTest extends ApiTest {

    @Test
    void reportsPlacementQueueUtilizationAndLeadership() {
        capacity("ml.g6.48xlarge", 1);
        String team = team(Map.of("ml.g6.48xlarge", 2));
        submit(team, job("measured", entry("ml.g6.48xlarge", 1)));
        awaitStatus(team, "measured", "RUNNING");
        submit(team, job("queued", entry("ml.g6.48xlarge", 1)));

        String scraped = Awaitility.await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(200))
                .until(() -> expect(api.get("/actuator/prometheus"), 200).text(),
                        text -> text.contains("spillover_jobs_pending{team=\"" + team + "\"} 1.0"));

        assertThat(scraped).contains("spillover_placement_time_seconds_bucket")
                .contains("entry=\"0\"")
                .contains("spillover_placement_fallback_depth_count")
                .contains("spillover_offering_utilization{instance_type=\"ml.g6.48xlarge\",region=\"us-east-1\","
                        + "source=\"on-demand\"} 1.0")
                .contains("spillover_leader 1.0")
                .contains("spillover_scheduling_cycle_seconds_count{scope=\"events\"}")
                .contains("spillover_scheduling_cycle_seconds_count{scope=\"sweep\"}");
    }

    @Test
    void onlyPlatformAdminsMayScrapeAndProbesAreOpen() {
        String team = team(Map.of());
        String member = expect(api.post("/api/v1/teams/" + team + "/tokens", Map.of("name", "m",
                "role", TeamRole.MEMBER.name())), 201).json().get("secret").asString();

        assertThat(api.as(null).get("/actuator/prometheus").status()).isEqualTo(401);
        assertThat(api.as(member).get("/actuator/prometheus").status()).isEqualTo(403);
        assertThat(api.as(null).get("/actuator/health/liveness").status()).isEqualTo(200);
        assertThat(api.as(null).get("/actuator/health/readiness").status()).isEqualTo(200);
    }
}
