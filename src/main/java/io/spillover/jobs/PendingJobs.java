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
     * @param within null for no restriction
     */
    public List<QueuedJob> concerning(Collection<UUID> jobIds, Collection<String> teams,
                                      Collection<OfferingKey> offerings, Collection<OfferingKey> within) {
        if (within != null) {
            var keep = within.stream().map(k -> k.region() + '\n' + k.instanceType()).collect(Collectors.toSet());
            offerings = offerings.stream().filter(k -> keep.contains(k.region() + '\n' + k.instanceType())).toList();
        }
        if (jobIds.isEmpty() && teams.isEmpty() && offerings.isEmpty()) {
            return List.of();
        }
        String teamsPart = within == null
                ? "SELECT id FROM jobs WHERE team = ANY(:teams) AND status = 'PENDING'"
                : """
                  SELECT j.id FROM unnest(CAST(:withinRegions AS text[]), CAST(:withinTypes AS text[]))
                                       AS w(region, instance_type)
                    JOIN job_entries e ON e.pending AND e.region = w.region AND e.instance_type = w.instance_type
                    JOIN jobs j ON j.id = e.job_id
                   WHERE j.team = ANY(:teams) AND j.status = 'PENDING'""";
        var params = new HashMap<String, Object>(Map.of("ids", jobIds.toArray(UUID[]::new),
                "teams", teams.toArray(String[]::new),
                "regions", offerings.stream().map(OfferingKey::region).toArray(String[]::new),
                "types", offerings.stream().map(OfferingKey::instanceType).toArray(String[]::new)));
        if (within != null) {
            params.put("withinRegions", within.stream().map(OfferingKey::region).toArray(String[]::new));
            params.put("withinTypes", within.stream().map(OfferingKey::instanceType).toArray(String[]::new));
        }
        UUID[] concerned = jdbc.sql("""
                        SELECT id FROM jobs WHERE id = ANY(:ids) AND status = 'PENDING'
                        UNION
                        %s
                        UNION
                        SELECT x.job_id FROM unnest(CAST(:regions AS text[]), CAST(:types AS text[]))
                                                AS o(region, instance_type)
                          CROSS JOIN LATERAL (SELECT job_id FROM job_entries
                                               WHERE pending AND instance_type = o.instance_type
                                                 AND region = o.region) x"""
                        .formatted(teamsPart))
                .params(params)
                .query(UUID.class).list().toArray(UUID[]::new);
        return concerned.length == 0 ? List.of() : load("j.id = ANY(:concerned)", Map.of("concerned", concerned));
    }

    private List<QueuedJob> load(String condition, Map<String, Object> params) {
        List<Row> rows = jdbc.sql("""
                        SELECT j.id, j.team, j.kind, j.priority, j.created_at, j.max_runtime_seconds, j.profile_name,
                               j.last_evaluation_id IS NOT NULL AS evaluated,
                               CAST(j.spec ->> 'fallbackAfterSeconds' AS bigint) AS fallback_after_seconds,
                               e.instance_type, e.instance_count, e.region, e.training_plan
                          FROM jobs j JOIN job_entries e ON e.job_id = j.id
                         WHERE j.status = 'PENDING' AND (%s)
                         ORDER BY %s, e.idx""".formatted(condition, QUEUE_ORDER))
                .params(params)
                .query((rs, n) -> new Row(rs.getObject("id", UUID.class), rs.getString("team"),
                        JobKind.valueOf(rs.getString("kind")), rs.getInt("priority"),
                        rs.getTimestamp("created_at").toInstant(), rs.getString("profile_name"),
                        rs.getBoolean("evaluated"), seconds(rs.getObject("fallback_after_seconds", Long.class)),
                        seconds(rs.getObject("max_runtime_seconds", Long.class)),
                        new PreferenceEntry(rs.getString("instance_type"), rs.getInt("instance_count"),
                                rs.getString("region"), rs.getString("training_plan"))))
                .list();
        var byJob = new LinkedHashMap<UUID, List<Row>>();
        rows.forEach(row -> byJob.computeIfAbsent(row.id(), id -> new ArrayList<>()).add(row));
        return byJob.values().stream().map(jobRows -> {
            Row first = jobRows.get(0);
            return new QueuedJob(first.id(), first.team(), first.kind(), first.priority(), first.createdAt(),
                    new PreferenceList(jobRows.stream().map(Row::entry).toList()), first.fallbackAfter(),
                    first.maxRuntime(), first.profile(), first.evaluated());
        }).toList();
    }

    /** One job and one of its entries, as the query returns them. */
    private record Row(UUID id, String team, JobKind kind, int priority, Instant createdAt, String profile,
                       boolean evaluated, Duration fallbackAfter, Duration maxRuntime, PreferenceEntry entry) {
    }

    private static Duration seconds(Long seconds) {
        return seconds == null ? null : Duration.ofSeconds(seconds);
    }
}
