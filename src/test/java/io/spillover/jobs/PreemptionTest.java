package io.spillover.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillover.support.ApiTest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/**
 * What a preemption does to a job on the local provider, whoever decided it: the job's process gets SIGTERM, is
 * killed after the grace, its instances go back, and the job waits again at its queue position and runs as a new
 * attempt that finds the same checkpoint directory. A stop asked for while it is being preempted ends it instead.
 */
class PreemptionTest extends ApiTest {

    static final String G5 = "ml.g5.12xlarge";
    static final Duration GRACE = Duration.ofSeconds(1);

    /**
     * Saves a checkpoint on SIGTERM and keeps running (so only the kill after the grace ends it); an attempt that
     * finds the checkpoint says so and completes.
     */
    static final String RESUMABLE = """
            dir="$SPILLOVER_CHECKPOINT_DIR"
            if [ -f "$dir/step" ]; then echo "resumed in $dir from $(cat "$dir/step")"; cat "$dir/history"; exit 0; fi
            trap 'echo "SIGTERM in $dir" >> "$dir/history"; echo step-7 > "$dir/step"; while true; do sleep 0.1; done' TERM
            echo "started in $dir"
            while true; do sleep 0.1; done
            """;

    @Autowired
    JobLifecycle lifecycle;

    private String team;

    @BeforeEach
    void aTeamWithOneInstance() {
        capacity(G5, 1);
        team = team(Map.of(G5, 1));
    }

    @Test
    void aPreemptedJobGetsSigtermIsKilledAfterTheGraceAndResumesFromTheSameCheckpointDirectory() {
        submit(team, resumable("resumable"));
        JsonNode running = awaitStatus(team, "resumable", "RUNNING");
        awaitLog("resumable", "started in");

        lifecycle.preempt(id(running), "reclaimed by a test", false, GRACE);

        JsonNode done = awaitStatus(team, "resumable", "COMPLETED");
        assertThat(done.get("attempt").asInt()).isEqualTo(2);
        assertThat(done.get("preemptions").asInt()).isEqualTo(1);
        assertThat(done.get("preemptible").asBoolean()).isTrue();
        List<JsonNode> transitions = done.get("transitions").valueStream().toList();
        assertThat(transitions.stream().map(t -> t.get("to").asString() + "/" + t.get("reason").asString()))
                .containsSubsequence("RUNNING/LAUNCHED", "STOPPING/PREEMPTED", "PENDING/PREEMPTED", "STARTING/PLACED",
                        "RUNNING/LAUNCHED", "COMPLETED/COMPLETED");
        Instant signalled = at(transitions, "STOPPING");
        Instant stopped = at(transitions, "PENDING", 1);
        assertThat(Duration.between(signalled, stopped)).as("SIGTERM ignored: killed only after the grace")
                .isGreaterThanOrEqualTo(GRACE);
        String log = logs("resumable");
        String dir = log.substring(log.indexOf("resumed in ") + "resumed in ".length(), log.indexOf(" from "));
        assertThat(dir).endsWith("/checkpoints/" + team + "/resumable-" + id(running));
        assertThat(log).contains("from step-7").contains("SIGTERM in " + dir);
        assertThat(done.get("createdAt").asString()).isEqualTo(running.get("createdAt").asString());
        assertThat(instancesInUse()).isZero();
    }

    @Test
    void aStopWhileTheJobIsBeingPreemptedEndsItInsteadOfQueueingItAgain() {
        submit(team, resumable("stopped"));
        JsonNode running = awaitStatus(team, "stopped", "RUNNING");
        awaitLog("stopped", "started in");
        lifecycle.preempt(id(running), "reclaimed by a test", false, GRACE);
        awaitStatus(team, "stopped", "STOPPING");

        JsonNode stopping = expect(api.post("/api/v1/teams/" + team + "/jobs/stopped/stop", Map.of()), 200).json();

        assertThat(stopping.get("statusReason").asString()).isIn("STOPPED_BY_USER");
        JsonNode ended = awaitStatus(team, "stopped", "STOPPED");
        assertThat(ended.get("statusReason").asString()).isEqualTo("STOPPED_BY_USER");
        assertThat(ended.get("attempt").asInt()).isEqualTo(1);
        assertThat(ended.get("preemptions").asInt()).isZero();
    }

    @Test
    void aJobThatDidNotOptInIsNeverPreempted() {
        var body = job("steady", entry(G5, 1));
        submit(team, body);
        JsonNode running = awaitStatus(team, "steady", "RUNNING");

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> lifecycle.preempt(id(running), "no", false, GRACE))
                .hasMessageContaining("did not opt in to preemption");

        assertThat(describe(team, "steady").get("status").asString()).isEqualTo("RUNNING");
    }

    private static Map<String, Object> resumable(String name) {
        var body = new LinkedHashMap<>(job(name, entry(G5, 1)));
        body.put("preemptible", true);
        body.put("container", Map.of("command", List.of("sh", "-c", RESUMABLE)));
        return body;
    }

    private void awaitLog(String job, String text) {
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
                .until(() -> logs(job).contains(text));
    }

    private String logs(String job) {
        return expect(api.get("/api/v1/teams/" + team + "/jobs/" + job + "/logs"), 200).text();
    }

    private static UUID id(JsonNode job) {
        return UUID.fromString(job.get("id").asString());
    }

    private static Instant at(List<JsonNode> transitions, String to) {
        return at(transitions, to, 0);
    }

    /** When the job last moved to {@code to}, skipping the first {@code skip} such moves. */
    private static Instant at(List<JsonNode> transitions, String to, int skip) {
        var found = new ArrayList<Instant>();
        transitions.stream().filter(t -> t.get("to").asString().equals(to))
                .forEach(t -> found.add(Instant.parse(t.get("at").asString())));
        return found.get(skip);
    }

    private int instancesInUse() {
        return org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(20))
                .until(() -> api.get("/api/v1/admin/teams/" + team).json().get("usage").get("jobsInUse").asInt(),
                        used -> used == 0);
    }
}
