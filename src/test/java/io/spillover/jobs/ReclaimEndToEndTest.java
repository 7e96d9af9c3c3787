package io.spillover.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.spillover.support.ApiTest;
import io.spillover.support.WebhookReceiver;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Lending and reclaiming end to end on the local provider: a team borrows what another leaves idle, and gets it
 * back when its own job arrives. The borrower's process gets SIGTERM, is killed after the grace (1 s in tests), waits
 * again at its queue position, and resumes from the same checkpoint directory once the instances are free; the
 * lender's job starts on what was reclaimed. Visible in the evaluations, the job view, the teams' views, a
 * {@code job.preempted} webhook event and the metrics.
 */
class ReclaimEndToEndTest extends ApiTest {

    static final String G5 = "ml.g5.48xlarge";

    private final WebhookReceiver receiver = new WebhookReceiver();
    private String lender;
    private String borrower;

    @BeforeEach
    void twoTeamsOneOfThemIdle() {
        capacity(G5, 2);
        lender = team(Map.of(G5, 2));
        borrower = team(Map.of(G5, 0));
        expect(api.put("/api/v1/admin/teams/" + borrower, Map.of("displayName", "Borrower",
                "sharing", Map.of("strategy", "LEND_AND_BORROW"))), 200);
    }

    @AfterEach
    void closeReceiver() {
        receiver.close();
    }

    @Test
    void aLenderGetsItsIdleQuotaBackFromAPreemptibleBorrowerThatResumesFromItsCheckpointLater() {
        JsonNode hook = expect(api.put("/api/v1/teams/" + borrower + "/webhooks/preempted", Map.of(
                "url", receiver.url("/preempted"), "events", List.of("job.preempted"))), 201).json();
        receiver.secret(hook.get("secret").asString());
        submit(borrower, resumable("training", 2));
        JsonNode borrowing = awaitStatus(borrower, "training", "RUNNING");
        assertThat(borrowing.at("/selection/borrowedInstances").asInt()).isEqualTo(2);
        assertThat(reasons(evaluations(borrower, "training").get(0)).get(0))
                .isEqualTo("selected: borrowing 2 " + G5 + " beyond team " + borrower
                        + "'s quota from idle capacity; may be reclaimed");
        assertThat(borrowed(borrower)).isEqualTo(2);
        // other tests' teams of this run leave guarantees of the type idle too: the loan is shared among them all
        assertThat(lentByEveryTeam()).isEqualTo(2);
        awaitLog(borrower, "training", "started in");

        var own = job("own", entry(G5, 2));
        submit(lender, own);
        JsonNode owned = awaitStatus(lender, "own", "RUNNING");

        JsonNode preempted = describe(borrower, "training");
        assertThat(preempted.get("status").asString()).isEqualTo("PENDING");
        assertThat(preempted.get("preemptions").asInt()).isEqualTo(1);
        assertThat(preempted.get("transitions").valueStream().map(t -> t.get("to").asString() + "/"
                + t.get("reason").asString())).containsSubsequence("RUNNING/LAUNCHED", "STOPPING/PREEMPTED",
                "PENDING/PREEMPTED");
        JsonNode stopping = preempted.get("transitions").valueStream()
                .filter(t -> t.get("to").asString().equals("STOPPING")).findFirst().orElseThrow();
        assertThat(stopping.get("message").asString()).contains(owned.get("id").asString()).contains(lender);
        assertThat(owned.at("/selection/borrowedInstances").asInt()).isZero();
        assertThat(evaluations(lender, "own").valueStream().flatMap(e -> reasons(e).stream()))
                .anyMatch(reason -> reason.contains("reclaiming 2") && reason.contains(borrowing.get("id").asString()));
        Instant signalled = Instant.parse(stopping.get("at").asString());
        Instant started = Instant.parse(owned.get("transitions").valueStream()
                .filter(t -> t.get("to").asString().equals("STARTING")).findFirst().orElseThrow().get("at").asString());
        assertThat(Duration.between(signalled, started)).as("the lender waits for the grace, then starts")
                .isGreaterThanOrEqualTo(Duration.ofSeconds(1)).isLessThan(Duration.ofSeconds(10));
        assertThat(borrowed(borrower)).isZero();
        await().atMost(Duration.ofSeconds(10)).until(() -> receiver.received().size() == 1);
        JsonNode event = receiver.received().get(0).event();
        assertThat(event.get("type").asString()).isEqualTo("io.spillover.job.preempted");
        assertThat(event.at("/data/status").asString()).isEqualTo("STOPPING");
        assertThat(event.at("/data/statusReason").asString()).isEqualTo("PREEMPTED");
        assertThat(metrics()).contains("spillover_jobs_preempted_total{team=\"" + borrower + "\"} 1.0");

        expect(api.post("/api/v1/teams/" + lender + "/jobs/own/stop", Map.of()), 200);

        JsonNode resumed = awaitStatus(borrower, "training", "COMPLETED");
        assertThat(resumed.get("attempt").asInt()).isEqualTo(2);
        String log = logs(borrower, "training");
        assertThat(log).contains("resumed in ").contains("from step-7").contains("SIGTERM in ");
    }

    @Test
    void aGuaranteeRaisedWhileBorrowersFillTheTypeReclaimsForTheJobThatWaitsOnIt() {
        submit(borrower, resumable("filling", 2));
        awaitStatus(borrower, "filling", "RUNNING");
        expect(api.put("/api/v1/admin/teams/" + lender + "/quotas", Map.of("instanceLimits", Map.of(G5, 1))), 200);
        expect(api.put("/api/v1/admin/teams/" + lender, Map.of("displayName", "Lender",
                "sharing", Map.of("strategy", "LEND_AND_BORROW"))), 200);
        submit(lender, job("bigger", entry(G5, 2))); // beyond its guarantee of 1: it may only borrow, and nothing is idle
        assertThat(reasons(awaitEvaluation(lender, "bigger")).get(0)).doesNotContain("reclaiming");

        // the guarantee now covers the job; no instance of the type is free, so only a reclaim can start it
        expect(api.put("/api/v1/admin/teams/" + lender + "/quotas", Map.of("instanceLimits", Map.of(G5, 2))), 200);

        assertThat(awaitStatus(lender, "bigger", "RUNNING").at("/selection/borrowedInstances").asInt()).isZero();
        assertThat(describe(borrower, "filling").get("preemptions").asInt()).isEqualTo(1);
        expect(api.post("/api/v1/teams/" + lender + "/jobs/bigger/stop", Map.of()), 200);
    }

    @Test
    void aBorrowerThatCannotBeStoppedNorEndsWithinTheHorizonDoesNotBorrow() {
        var unbounded = job("unbounded", entry(G5, 1));
        submit(borrower, unbounded);
        JsonNode waiting = awaitEvaluation(borrower, "unbounded");
        assertThat(reasons(waiting).get(0)).contains("borrowing beyond it needs a maximum run time of at most 4 h"
                + " or a checkpoint to resume from");

        var bounded = job("bounded", entry(G5, 1));
        bounded.put("maxRuntimeInSeconds", 3600);
        submit(borrower, bounded);
        JsonNode running = awaitStatus(borrower, "bounded", "RUNNING");
        assertThat(running.at("/selection/borrowedInstances").asInt()).isEqualTo(1);
        assertThat(reasons(evaluations(borrower, "bounded").get(0)).get(0))
                .endsWith("returned within its maximum run time of 1 h");
    }

    private static Map<String, Object> resumable(String name, int count) {
        var body = new LinkedHashMap<>(job(name, entry(G5, count)));
        body.put("preemptible", true);
        body.put("container", Map.of("command", List.of("sh", "-c", PreemptionTest.RESUMABLE)));
        return body;
    }

    private JsonNode teamView(String team) {
        return expect(api.get("/api/v1/admin/teams/" + team), 200).json();
    }

    private int borrowed(String team) {
        return teamView(team).at("/usage/borrowed").path(G5).asInt(0);
    }

    private int lentByEveryTeam() {
        return expect(api.get("/api/v1/admin/teams"), 200).json().valueStream()
                .mapToInt(team -> team.at("/usage/lent").path(G5).asInt(0)).sum();
    }

    private String metrics() {
        return await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(200))
                .until(() -> expect(api.get("/actuator/prometheus"), 200).text(),
                        text -> text.contains("spillover_jobs_preempted_total{team=\"" + borrower + "\"}"));
    }

    private void awaitLog(String team, String job, String text) {
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
                .until(() -> logs(team, job).contains(text));
    }

    private String logs(String team, String job) {
        return expect(api.get("/api/v1/teams/" + team + "/jobs/" + job + "/logs"), 200).text();
    }
}
