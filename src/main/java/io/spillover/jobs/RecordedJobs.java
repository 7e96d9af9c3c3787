package io.spillover.jobs;

import io.spillover.catalog.JobKind;
import io.spillover.placement.OfferingKey;
import io.spillover.placement.PreferenceEntry;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

/**
 * The jobs' history as a replay reads it: every job submitted in a window, with its list, and the jobs that were
 * running when the window began. Only reads, in one read-only transaction each.
 */
@Component
public class RecordedJobs {

    /** The most jobs one read returns; a window holding more is refused by its caller. */
    public static final int MAX_JOBS = 100_000;

    private static final String COLUMNS = """
            j.id, j.team, j.name, j.kind, j.priority, j.profile_name, j.status, j.created_at, j.started_at,
            j.ended_at, j.selected_type, j.selected_count, j.selected_region, j.selected_source,
            j.max_runtime_seconds, (j.spec ->> 'fallbackAfterSeconds')::bigint AS fallback_after,
            e.idx, e.instance_type, e.instance_count, e.region, e.training_plan""";

    private final JdbcClient jdbc;

    RecordedJobs(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * The jobs submitted from {@code from} (inclusive) to {@code to} (exclusive), in submission order; at most
     * {@link #MAX_JOBS} + 1, so a caller can tell a window that holds too many.
     */
    @Transactional(readOnly = true)
    public List<RecordedJob> submitted(Instant from, Instant to) {
        return read(jdbc.sql("SELECT " + COLUMNS + """
                 FROM (SELECT * FROM jobs WHERE created_at >= :from AND created_at < :to
                        ORDER BY created_at, id LIMIT :limit) j
                 JOIN job_entries e ON e.job_id = j.id
                ORDER BY j.created_at, j.id, e.idx""")
                .param("from", Timestamp.from(from)).param("to", Timestamp.from(to)).param("limit", MAX_JOBS + 1));
    }

    /** The jobs submitted before {@code at} that ran at that moment: started before it, not ended by then. */
    @Transactional(readOnly = true)
    public List<RecordedJob> runningAt(Instant at) {
        return read(jdbc.sql("SELECT " + COLUMNS + """
                 FROM jobs j JOIN job_entries e ON e.job_id = j.id
                WHERE j.created_at < :at AND j.started_at < :at AND (j.ended_at IS NULL OR j.ended_at > :at)
                  AND j.selected_type IS NOT NULL
                ORDER BY j.created_at, j.id, e.idx""")
                .param("at", Timestamp.from(at)));
    }

    private static List<RecordedJob> read(JdbcClient.StatementSpec statement) {
        var rows = new LinkedHashMap<UUID, Row>();
        statement.query((ResultSet rs) -> {
            UUID id = rs.getObject("id", UUID.class);
            rows.computeIfAbsent(id, key -> row(rs)).entries.add(new PreferenceEntry(rs.getString("instance_type"),
                    rs.getInt("instance_count"), rs.getString("region"), rs.getString("training_plan")));
        });
        var jobs = new ArrayList<RecordedJob>(rows.size());
        rows.values().forEach(row -> jobs.add(row.job()));
        return jobs;
    }

    /** One job's columns, and its entries as they are read. */
    private record Row(UUID id, String team, String name, JobKind kind, int priority, String profile, JobStatus status,
                       Instant createdAt, Instant startedAt, Instant endedAt, OfferingKey ranOn, Integer ranInstances,
                       Duration maxRuntime, Duration fallbackAfter, List<PreferenceEntry> entries) {

        RecordedJob job() {
            return new RecordedJob(id, team, name, kind, priority, profile, entries, status, createdAt, startedAt,
                    endedAt, ranOn, ranInstances, maxRuntime, fallbackAfter);
        }
    }

    private static Row row(ResultSet rs) {
        try {
            String type = rs.getString("selected_type");
            OfferingKey ranOn = type == null ? null
                    : new OfferingKey(rs.getString("selected_region"), type, rs.getString("selected_source"));
            Long max = rs.getObject("max_runtime_seconds", Long.class);
            Long fallback = rs.getObject("fallback_after", Long.class);
            return new Row(rs.getObject("id", UUID.class), rs.getString("team"), rs.getString("name"),
                    JobKind.valueOf(rs.getString("kind")), rs.getInt("priority"), rs.getString("profile_name"),
                    JobStatus.valueOf(rs.getString("status")), instant(rs, "created_at"), instant(rs, "started_at"),
                    instant(rs, "ended_at"), ranOn, rs.getObject("selected_count", Integer.class),
                    max == null ? null : Duration.ofSeconds(max), fallback == null ? null : Duration.ofSeconds(fallback),
                    new ArrayList<>());
        } catch (SQLException e) {
            throw new IllegalStateException("unreadable job row", e);
        }
    }

    private static Instant instant(ResultSet rs, String column) throws SQLException {
        Timestamp at = rs.getTimestamp(column);
        return at == null ? null : at.toInstant();
    }
}
