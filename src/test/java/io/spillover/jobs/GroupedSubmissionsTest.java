package io.spillover.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillover.support.Api;
import io.spillover.support.ApiTest;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.util.AopTestUtils;

/**
 * Submissions that arrive while another is being stored are stored together, in one transaction, each with its own
 * record in the audit log; one of them whose name another took is refused alone. To let submissions queue, the test
 * holds a lock on the audit log that the first submission's transaction waits on before it commits.
 */
class GroupedSubmissionsTest extends ApiTest {

    static final String M5 = "ml.m5.xlarge";

    @Autowired
    JobSubmissions submissions;

    @Autowired
    DataSource dataSource;

    @Autowired
    JdbcClient jdbc;

    private final ExecutorService clients = Executors.newCachedThreadPool();

    @AfterEach
    void stopClients() {
        clients.shutdownNow();
    }

    @Test
    void submissionsArrivingTogetherAreStoredInOneTransactionEachWithItsRecord() throws Exception {
        capacity(M5, 0);
        String team = team(Map.of(M5, 8));

        List<Api.Response> answers = whileTheFirstWaitsToCommit(team, List.of("first", "b", "c", "d", "e"));

        assertThat(answers).allSatisfy(answer -> assertThat(answer.status()).as(answer.text()).isEqualTo(201));
        // PostgreSQL's xmin is the transaction that wrote a row: the first alone, the four that queued in one more
        assertThat(jdbc.sql("SELECT count(DISTINCT xmin::text) FROM jobs WHERE team = ?").param(team)
                .query(Long.class).single()).isEqualTo(2);
        assertThat(jdbc.sql("SELECT count(*) FROM job_entries WHERE team = ?").param(team).query(Long.class).single())
                .isEqualTo(5);
        assertThat(records(team)).containsExactlyInAnyOrder("done", "done", "done", "done", "done");
        // and each record in its job's transaction: the group's four written together before it committed
        assertThat(jdbc.sql("SELECT count(DISTINCT xmin::text) FROM audit_log WHERE action = 'submit job' AND target = ?")
                .param("teams/" + team + "/jobs").query(Long.class).single()).isEqualTo(2);
        for (String name : List.of("first", "b", "c", "d", "e")) {
            assertThat(describe(team, name).get("status").asString()).isEqualTo("PENDING");
        }
    }

    @Test
    void aNameTakenWithinAGroupIsRefusedToOneSubmissionAloneAndRecordedSo() throws Exception {
        capacity(M5, 0);
        String team = team(Map.of(M5, 8));

        List<Api.Response> answers = whileTheFirstWaitsToCommit(team, List.of("first", "b", "twin", "twin", "e"));

        assertThat(answers.stream().map(Api.Response::status)).containsExactlyInAnyOrder(201, 201, 201, 201, 400);
        Api.Response refused = answers.stream().filter(a -> a.status() == 400).findFirst().orElseThrow();
        assertThat(refused.json().get("detail").asString()).contains("already has a job named twin");
        assertThat(jdbc.sql("SELECT name FROM jobs WHERE team = ? ORDER BY name").param(team).query(String.class)
                .list()).containsExactly("b", "e", "first", "twin");
        assertThat(records(team)).containsExactlyInAnyOrder("done", "done", "done", "done", "invalid");
    }

    /**
     * Submits the first job and, while its transaction waits for a lock the test holds on the audit log, the others;
     * lets the first commit once the others all wait to be stored. The answers, in the order of the names.
     */
    private List<Api.Response> whileTheFirstWaitsToCommit(String team, List<String> names) throws Exception {
        JobSubmissions target = AopTestUtils.getTargetObject(submissions);
        var answers = new ArrayList<CompletableFuture<Api.Response>>();
        try (Connection lock = dataSource.getConnection()) {
            lock.setAutoCommit(false);
            lock.createStatement().execute("LOCK TABLE audit_log IN EXCLUSIVE MODE"); // reads go on, inserts wait
            answers.add(post(team, names.get(0)));
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> jdbc.sql("""
                    SELECT count(*) FROM pg_locks WHERE relation = 'audit_log'::regclass AND NOT granted""")
                    .query(Long.class).single() == 1);
            for (String name : names.subList(1, names.size())) {
                answers.add(post(team, name));
            }
            Awaitility.await().atMost(Duration.ofSeconds(10))
                    .until(() -> target.waitingToBeStored() == names.size() - 1);
            lock.commit();
        }
        var responses = new ArrayList<Api.Response>();
        for (CompletableFuture<Api.Response> answer : answers) {
            responses.add(answer.get(20, TimeUnit.SECONDS));
        }
        return responses;
    }

    private CompletableFuture<Api.Response> post(String team, String name) {
        return CompletableFuture.supplyAsync(() -> api.post("/api/v1/teams/" + team + "/jobs",
                job(name, entry(M5, 1))), clients);
    }

    /** The outcomes of the audit log's records of submissions to the team. */
    private List<String> records(String team) {
        return jdbc.sql("SELECT outcome FROM audit_log WHERE action = 'submit job' AND target = ?")
                .param("teams/" + team + "/jobs").query(String.class).list();
    }
}
