package io.spillover.jobs;

import io.spillover.catalog.JobKind;
import io.spillover.placement.OfferingKey;
import io.spillover.placement.PreferenceEntry;
import io.spillover.placement.PreferenceList;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import java.time.Duration;
import java.time.Instant;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The queue of pending jobs in the order they are served: priority (higher first), then submission time.
 * Reads only the jobs an event concerns: those listing a changed offering, those of a team whose headroom
 * changed, or named jobs; for the safety sweep, those listing an offering with an instance free, and those
 * never evaluated.
 */
@Repository
public class PendingJobs {

    /**
     * Queue order as SQL over a job aliased {@code j}: the same order as {@code QueuedRequest.queueOrder()},
     * which the placement core and the replay use (QueueOrderTest holds the two together, ties included).
     */
    static final String QUEUE_ORDER = "j.priority DESC, j.created_at, j.id";

    private final JdbcClient jdbc;

    PendingJobs(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** The pending jobs no cycle has evaluated yet (a leader may have died between a submission and its cycle). */
    public List<UUID> unevaluated() {
        return jdbc.sql("SELECT id FROM jobs WHERE status = 'PENDING' AND last_evaluation_id IS NULL")
                .query(UUID.class).list();
    }

    /**
     * Pending jobs that are named, belong to one of the teams, or list one of the offerings' types and regions.
     * Their ids are found first, each kind by its own index, so that the cost follows the jobs concerned
     * rather than the length of the queue (one query joining the three by OR walked every pending job). The
     * offerings' part reads only entries of pending jobs ({@code job_entries.pending}, which the database keeps
     * as a job's status changes), so it grows with the jobs waiting on an offering, not with its history.
     */
    public List<QueuedJob> concerning(Collection<UUID> jobIds, Collection<String> teams,
                                      Collection<OfferingKey> offerings) {
        return concerning(jobIds, teams, offerings, null);
    }

    /**
     * As {@link #concerning(Collection, Collection, Collection)}, but of the teams' and offerings' jobs only those
     * that list one of {@code within} (by type and region): a cycle asks for the jobs that list an offering with
     * an instance free, since no other could start. The teams' part starts from those offerings' pending entries,
     * so a release costs the jobs that could take it, not the length of the team's queue.
     *
     * <p>Each offering is written into the query as its own pair of bound values, and a part with nothing to
     * look for is left out. Queues are skewed (most of a long queue waits on the one scarce type): with the
     * values in view, the planner's statistics of the column send a rare offering to the index. Joined from an
     * array instead, the planner saw only the number of distinct types, guessed that half of all pending entries
     * match, and scanned all of them, with the queue's every pending job hashed for the team: a release with
     * 100,000 pending cost 100 ms, with 1,000 a few.
     *
     * @param within null for no restriction
     */
    public List<QueuedJob> concerning(Collection<UUID> jobIds, Collection<String> teams,
                                      Collection<OfferingKey> offerings, Collection<OfferingKey> within) {
        ConcernedQuery query = concernedQuery(jobIds, teams, offerings, within);
        if (query == null) {
            return List.of();
        }
        UUID[] concerned = jdbc.sql(query.sql()).params(query.params()).query(UUID.class).list().toArray(UUID[]::new);
        return concerned.length == 0 ? List.of() : load("j.id = ANY(:concerned)", Map.of("concerned", concerned));
    }

    /** Every pending job, in queue order. */
    public List<QueuedJob> all() {
        return load("TRUE", Map.of());
    }

    /**
     * The first {@code perTeam} pending jobs, in queue order, of each team on each of the offerings (by type and
     * region), in queue order: the part of the queue an estimate of the starts looks at, however long it is.
     *
     * @param offerings null for every offering
     */
    public List<QueuedJob> windows(Collection<OfferingKey> offerings, int perTeam) {
        var params = new HashMap<String, Object>();
        params.put("window", perTeam);
        String listed = "TRUE";
        if (offerings != null) {
            if (offerings.isEmpty()) {
                return List.of();
            }
            listed = listing(offerings, "o", params);
        }
        UUID[] ids = jdbc.sql("""
                        SELECT DISTINCT job_id FROM (
                            SELECT e.job_id, row_number() OVER (PARTITION BY e.instance_type, e.region, j.team
                                                                ORDER BY %s) AS place
                              FROM job_entries e JOIN jobs j ON j.id = e.job_id
                             WHERE e.pending AND j.status = 'PENDING' AND (%s)) ranked
                         WHERE place <= :window""".formatted(QUEUE_ORDER, listed))
                .params(params).query(UUID.class).list().toArray(UUID[]::new);
        return ids.length == 0 ? List.of() : load("j.id = ANY(:ids)", Map.of("ids", ids));
    }

    /**
     * A job as far as what it could change in the queue: whether it waits, where in queue order, and the offerings
     * its entries list.
     *
     * @param listed by type and region (on demand) or plan
     */
    public record Listing(UUID id, String team, boolean pending, int priority, Instant createdAt,
                          List<OfferingKey> listed) {
    }

    /** What these jobs list, whatever their status; jobs that do not exist are left out. */
    public List<Listing> listings(Collection<UUID> jobIds) {
        if (jobIds.isEmpty()) {
            return List.of();
        }
        record Entry(UUID id, String team, boolean pending, int priority, Instant createdAt, OfferingKey offering) {
        }
        List<Entry> entries = jdbc.sql("""
                        SELECT j.id, j.team, j.status = 'PENDING' AS pending, j.priority, j.created_at,
                               e.instance_type, e.region, e.training_plan
                          FROM jobs j JOIN job_entries e ON e.job_id = j.id
                         WHERE j.id = ANY(:ids)
                         ORDER BY j.id, e.idx""")
                .param("ids", jobIds.toArray(UUID[]::new))
                .query((rs, n) -> {
                    String plan = rs.getString("training_plan");
                    String region = rs.getString("region");
                    String type = rs.getString("instance_type");
                    return new Entry(rs.getObject("id", UUID.class), rs.getString("team"), rs.getBoolean("pending"),
                            rs.getInt("priority"), rs.getTimestamp("created_at").toInstant(),
                            plan == null ? OfferingKey.onDemand(region, type) : OfferingKey.plan(region, type, plan));
                }).list();
        var byJob = new LinkedHashMap<UUID, List<Entry>>();
        entries.forEach(e -> byJob.computeIfAbsent(e.id(), id -> new ArrayList<>()).add(e));
        return byJob.values().stream().map(job -> new Listing(job.get(0).id(), job.get(0).team(),
                job.get(0).pending(), job.get(0).priority(), job.get(0).createdAt(),
                job.stream().map(Entry::offering).toList())).toList();
    }

    /** The statement that finds the ids of the jobs concerned, and its parameters. */
    record ConcernedQuery(String sql, Map<String, Object> params) {
    }

    /** The ids' statement of {@link #concerning(Collection, Collection, Collection, Collection)}; null for none. */
    static ConcernedQuery concernedQuery(Collection<UUID> jobIds, Collection<String> teams,
                                         Collection<OfferingKey> offerings, Collection<OfferingKey> within) {
        if (within != null) {
            var keep = within.stream().map(PendingJobs::typeInRegion).collect(Collectors.toSet());
            offerings = offerings.stream().filter(k -> keep.contains(typeInRegion(k))).toList();
        }
        var params = new HashMap<String, Object>();
        var parts = new ArrayList<String>();
        if (!jobIds.isEmpty()) {
            params.put("ids", jobIds.toArray(UUID[]::new));
            parts.add("SELECT id FROM jobs WHERE id = ANY(:ids) AND status = 'PENDING'");
        }
        if (!teams.isEmpty() && (within == null || !within.isEmpty())) {
            params.put("teams", teams.toArray(String[]::new));
            parts.add(within == null
                    ? "SELECT id FROM jobs WHERE team = ANY(:teams) AND status = 'PENDING'"
                    : "SELECT j.id FROM job_entries e JOIN jobs j ON j.id = e.job_id WHERE e.pending AND ("
                      + listing(within, "w", params) + ") AND j.team = ANY(:teams) AND j.status = 'PENDING'");
        }
        if (!offerings.isEmpty()) {
            parts.add("SELECT job_id FROM job_entries WHERE pending AND (" + listing(offerings, "o", params) + ")");
        }
        return parts.isEmpty() ? null : new ConcernedQuery(String.join("\nUNION\n", parts), params);
    }

    /** {@code (instance_type = :p0t AND region = :p0r) OR ...} over entries, one pair of bound values each. */
    private static String listing(Collection<OfferingKey> offerings, String prefix, Map<String, Object> params) {
        var pairs = new ArrayList<String>();
        for (String key : offerings.stream().map(PendingJobs::typeInRegion).distinct().toList()) {
            String name = prefix + pairs.size();
            int split = key.indexOf('\n');
            params.put(name + "r", key.substring(0, split));
            params.put(name + "t", key.substring(split + 1));
            pairs.add("(instance_type = :" + name + "t AND region = :" + name + "r)");
        }
        return String.join(" OR ", pairs);
    }

    private static String typeInRegion(OfferingKey key) {
        return key.region() + '\n' + key.instanceType();
    }

    private List<QueuedJob> load(String condition, Map<String, Object> params) {
        List<Row> rows = jdbc.sql("""
                        SELECT j.id, j.team, j.kind, j.priority, j.created_at, j.max_runtime_seconds, j.profile_name, j.sweep_id,
                               j.last_evaluation_id IS NOT NULL AS evaluated, j.pending_deadline,
                               CAST(j.spec ->> 'fallbackAfterSeconds' AS bigint) AS fallback_after_seconds,
                               CAST(j.spec ->> 'expectedRuntimeSeconds' AS bigint) AS expected_runtime_seconds,
                               e.instance_type, e.instance_count, e.region, e.training_plan
                          FROM jobs j JOIN job_entries e ON e.job_id = j.id
                         WHERE j.status = 'PENDING' AND (%s)
                         ORDER BY %s, e.idx""".formatted(condition, QUEUE_ORDER))
                .params(params)
                .query((rs, n) -> new Row(rs.getObject("id", UUID.class), rs.getString("team"),
                        JobKind.valueOf(rs.getString("kind")), rs.getInt("priority"),
                        rs.getTimestamp("created_at").toInstant(), rs.getString("profile_name"),
                        rs.getObject("sweep_id", UUID.class),
                        rs.getBoolean("evaluated"), seconds(rs.getObject("fallback_after_seconds", Long.class)),
                        seconds(rs.getObject("max_runtime_seconds", Long.class)),
                        seconds(rs.getObject("expected_runtime_seconds", Long.class)),
                        rs.getTimestamp("pending_deadline").toInstant(),
                        new PreferenceEntry(rs.getString("instance_type"), rs.getInt("instance_count"),
                                rs.getString("region"), rs.getString("training_plan"))))
                .list();
        var byJob = new LinkedHashMap<UUID, List<Row>>();
        rows.forEach(row -> byJob.computeIfAbsent(row.id(), id -> new ArrayList<>()).add(row));
        return byJob.values().stream().map(jobRows -> {
            Row first = jobRows.get(0);
            return new QueuedJob(first.id(), first.team(), first.kind(), first.priority(), first.createdAt(),
                    new PreferenceList(jobRows.stream().map(Row::entry).toList()), first.fallbackAfter(),
                    first.maxRuntime(), first.hint(), first.pendingDeadline(), first.profile(), first.sweep(),
                    first.evaluated());
        }).toList();
    }

    /** One job and one of its entries, as the query returns them. */
    private record Row(UUID id, String team, JobKind kind, int priority, Instant createdAt, String profile,
                       UUID sweep, boolean evaluated, Duration fallbackAfter, Duration maxRuntime, Duration hint,
                       Instant pendingDeadline, PreferenceEntry entry) {
    }

    private static Duration seconds(Long seconds) {
        return seconds == null ? null : Duration.ofSeconds(seconds);
    }
}
