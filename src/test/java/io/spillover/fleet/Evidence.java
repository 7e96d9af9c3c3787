package io.spillover.fleet;

import io.spillover.providers.sagemaker.FakeSageMaker;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What the invariant checker examines, as plain data: what the clients were told, what the database holds
 * (jobs, their append-only transitions and latest evaluations, the limits), what the provider recorded, and
 * how long each takeover took. Loaded from a run by {@link #load}; made up by hand to test the checker.
 */
record Evidence(List<Acknowledged> acknowledged, List<StoredJob> jobs, List<Transition> transitions, Limits limits,
                List<FakeSageMaker.Create> creates, List<FakeSageMaker.StatusChange> providerChanges,
                Map<String, FakeSageMaker.Peak> providerPeaks, List<Takeover> takeovers) {

    /** A job's statuses once it ended. */
    static final Set<String> ENDED = Set.of("COMPLETED", "FAILED", "STOPPED");

    /** A submission answered 200 or 201: the job must exist. */
    record Acknowledged(String team, String clientToken, String jobName) {
    }

    /** A job as the {@code jobs} table has it now, with its list and its latest evaluation (null if none). */
    record StoredJob(UUID id, String team, String name, String clientToken, String status, String reason,
                     int attempt, List<Entry> entries, Evaluation latestEvaluation) {

        String describe() {
            return team + "/" + name + " (" + id + ")";
        }
    }

    /** One entry of a job's preference list ({@code job_entries}); {@code trainingPlan} may be null. */
    record Entry(int index, String instanceType, int instanceCount, String region, String trainingPlan) {

        String source() {
            return trainingPlan == null ? "on-demand" : "plan:" + trainingPlan;
        }
    }

    /** An evaluation's outcome and its verdict for each entry. */
    record Evaluation(String outcome, List<Verdict> entries) {
    }

    record Verdict(int index, boolean fits, String reason) {
    }

    /** A row of the append-only {@code job_transitions}; {@code id} orders them. */
    record Transition(long id, UUID jobId, String team, Instant at, String from, String to, String reason,
                      String message, int attempt) {
    }

    /**
     * The limits capacity is held against. Offerings are keyed {@code region/instanceType/source}, quotas
     * {@code team/instanceType}; a team without a concurrent-job cap is absent from {@code concurrentJobs}.
     * {@code offeringsInUse} is each offering's use counter at the end of the run.
     */
    record Limits(Map<String, Integer> offerings, Map<String, Integer> offeringsInUse, Map<String, Integer> plans,
                  Map<String, Integer> quotas, Map<String, Integer> concurrentJobs) {
    }

    /** The leader was killed ({@code how}); {@code successor} held the lock {@code after} its death. */
    record Takeover(String how, String killed, String successor, Duration after) {
    }

    static String offering(String region, String instanceType, String source) {
        return region + "/" + instanceType + "/" + source;
    }

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** Reads a run's evidence from its database and provider, with what the test itself saw. */
    static Evidence load(JdbcClient db, FakeSageMaker sageMaker, List<Acknowledged> acknowledged,
                         List<Takeover> takeovers) {
        Map<UUID, List<Entry>> entries = new HashMap<>();
        db.sql("SELECT job_id, idx, instance_type, instance_count, region, training_plan FROM job_entries"
                        + " ORDER BY job_id, idx")
                .query((ResultSet rs) -> {
                    entries.computeIfAbsent(rs.getObject("job_id", UUID.class), id -> new ArrayList<>())
                            .add(new Entry(rs.getInt("idx"), rs.getString("instance_type"), rs.getInt("instance_count"),
                                    rs.getString("region"), rs.getString("training_plan")));
                });
        Map<UUID, Evaluation> latest = new HashMap<>();
        db.sql("SELECT e.job_id, e.outcome, e.entries::text AS entries FROM job_evaluations e"
                        + " JOIN latest_evaluations l ON l.evaluation_id = e.id")
                .query((ResultSet rs) -> {
                    var verdicts = new ArrayList<Verdict>();
                    for (JsonNode verdict : JSON.readTree(rs.getString("entries"))) {
                        verdicts.add(new Verdict(verdict.get("index").asInt(), verdict.get("fits").asBoolean(),
                                verdict.path("reason").asString("")));
                    }
                    latest.put(rs.getObject("job_id", UUID.class), new Evaluation(rs.getString("outcome"), verdicts));
                });
        List<StoredJob> jobs = db.sql("SELECT id, team, name, client_token, status, status_reason, attempt FROM jobs"
                        + " ORDER BY created_at, id")
                .query((rs, n) -> {
                    UUID id = rs.getObject("id", UUID.class);
                    return new StoredJob(id, rs.getString("team"), rs.getString("name"), rs.getString("client_token"),
                            rs.getString("status"), rs.getString("status_reason"), rs.getInt("attempt"),
                            List.copyOf(entries.getOrDefault(id, List.of())), latest.get(id));
                })
                .list();
        List<Transition> transitions = db.sql("SELECT id, job_id, team, at, from_status, to_status, reason, message,"
                        + " attempt FROM job_transitions ORDER BY id")
                .query((rs, n) -> new Transition(rs.getLong("id"), rs.getObject("job_id", UUID.class),
                        rs.getString("team"), rs.getTimestamp("at").toInstant(), rs.getString("from_status"),
                        rs.getString("to_status"), rs.getString("reason"), rs.getString("message"), rs.getInt("attempt")))
                .list();
        return new Evidence(List.copyOf(acknowledged), jobs, transitions, limits(db), sageMaker.creates(),
                sageMaker.changes(), sageMaker.peaks(), List.copyOf(takeovers));
    }

    private static Limits limits(JdbcClient db) {
        Map<String, Integer> offerings = new HashMap<>();
        Map<String, Integer> inUse = new HashMap<>();
        db.sql("SELECT region, instance_type, source, total, in_use FROM offerings").query((ResultSet rs) -> {
            String key = offering(rs.getString("region"), rs.getString("instance_type"), rs.getString("source"));
            offerings.put(key, rs.getInt("total"));
            inUse.put(key, rs.getInt("in_use"));
        });
        Map<String, Integer> plans = new HashMap<>();
        db.sql("SELECT name, instance_count FROM training_plans")
                .query((ResultSet rs) -> { plans.put(rs.getString("name"), rs.getInt("instance_count")); });
        Map<String, Integer> quotas = new HashMap<>();
        db.sql("SELECT team, instance_type, max_instances FROM team_quotas").query((ResultSet rs) -> {
            quotas.put(rs.getString("team") + "/" + rs.getString("instance_type"), rs.getInt("max_instances"));
        });
        Map<String, Integer> concurrentJobs = new HashMap<>();
        db.sql("SELECT name, max_concurrent_jobs FROM teams WHERE max_concurrent_jobs IS NOT NULL")
                .query((ResultSet rs) -> { concurrentJobs.put(rs.getString("name"), rs.getInt("max_concurrent_jobs")); });
        return new Limits(offerings, inUse, plans, quotas, concurrentJobs);
    }
}
