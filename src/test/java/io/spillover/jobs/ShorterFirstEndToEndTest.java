package io.spillover.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillover.support.ApiTest;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * In-team preemption on the running service ({@code spillover.sharing.shorter-first}, off by default, 4 here): a
 * team's short job that fits nowhere stops the team's own long preemptible job, which gets SIGTERM, waits again at
 * its place and resumes from its checkpoint once the short job has ended, before a shorter teammate that came since;
 * no other team is touched.
 */
@TestPropertySource(properties = "spillover.sharing.shorter-first=4")
class ShorterFirstEndToEndTest extends ApiTest {

    static final String G5 = "ml.g5.48xlarge";

    @Test
    void aShortJobStopsItsTeamsLongCheckpointingJobWhichResumesAfterIt() {
        capacity(G5, 2);
        String team = team(Map.of(G5, 2));
        String other = team(Map.of(G5, 1)); // guarantees add up to more than the fleet, as admins give them out
        submit(team, resumable("week", 2, 7 * 86_400));
        JsonNode week = awaitStatus(team, "week", "RUNNING");
        var eval = job("eval", entry(G5, 2));
        eval.put("maxRuntimeInSeconds", 3600);
        // another team's job within its guarantee: what the long job gives back goes to the short one, not to it
        var stranger = job("stranger", entry(G5, 1));
        stranger.put("maxRuntimeInSeconds", 600);
        submit(other, stranger);

        submit(team, eval);

        JsonNode running = awaitStatus(team, "eval", "RUNNING");
        assertThat(running.at("/selection/borrowedInstances").asInt()).isZero();
        JsonNode preempted = describe(team, "week");
        assertThat(preempted.get("status").asString()).isEqualTo("PENDING");
        assertThat(preempted.get("preemptions").asInt()).isEqualTo(1);
        assertThat(preempted.get("statusMessage").asString()).isEqualTo("preempted: attempt 1 stopped (stopped); it gave"
                + " way to a shorter job of its team and waits again before the team's other jobs of its priority, to"
                + " resume from its checkpoint (preemption 1)");
        JsonNode stopping = preempted.get("transitions").valueStream()
                .filter(t -> t.get("to").asString().equals("STOPPING")).findFirst().orElseThrow();
        assertThat(stopping.get("reason").asString()).isEqualTo("PREEMPTED");
        assertThat(stopping.get("message").asString()).startsWith("preempted for job " + running.get("id").asString()
                + " of the same team, which may run at most 1 h: this job is preemptible and may run ")
                .endsWith(" more (shorter first within a team: at least 4 times as long)");
        assertThat(evaluations(team, "eval").valueStream().flatMap(e -> reasons(e).stream()))
                .anyMatch(reason -> reason.contains("preempting job " + week.get("id").asString() + " of this team"));
        assertThat(describe(other, "stranger").get("status").asString()).isEqualTo("PENDING");

        // a shorter teammate, which shortest-first would start first: the job that gave way resumes before it
        var quick = job("quick", entry(G5, 2));
        quick.put("maxRuntimeInSeconds", 600);
        submit(team, quick);
        expect(api.post("/api/v1/teams/" + other + "/jobs/stranger/stop", Map.of()), 200);
        expect(api.post("/api/v1/teams/" + team + "/jobs/eval/stop", Map.of()), 200);

        JsonNode resumed = awaitStatus(team, "week", "COMPLETED");
        assertThat(resumed.get("attempt").asInt()).isEqualTo(2);
        assertThat(resumed.get("preemptions").asInt()).isEqualTo(1);
        Instant weekEnded = Instant.parse(at(resumed, "COMPLETED"));
        assertThat(describe(team, "quick").get("transitions").valueStream()
                .filter(t -> t.get("to").asString().equals("STARTING"))
                .map(t -> Instant.parse(t.get("at").asString())))
                .allMatch(started -> !started.isBefore(weekEnded)); // pending, or started on what week gave back
        assertThat(expect(api.get("/api/v1/teams/" + team + "/jobs/week/logs"), 200).text())
                .contains("SIGTERM in ").contains("resumed in ").contains("from step-7");
    }

    private static String at(JsonNode job, String status) {
        return job.get("transitions").valueStream().filter(t -> t.get("to").asString().equals(status))
                .reduce((first, last) -> last).orElseThrow().get("at").asString();
    }

    private static Map<String, Object> resumable(String name, int count, int maxRuntimeSeconds) {
        var body = new LinkedHashMap<>(job(name, entry(G5, count)));
        body.put("preemptible", true);
        body.put("maxRuntimeInSeconds", maxRuntimeSeconds);
        body.put("container", Map.of("command", List.of("sh", "-c", PreemptionTest.RESUMABLE)));
        return body;
    }
}
