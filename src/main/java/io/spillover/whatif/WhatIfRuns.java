package io.spillover.whatif;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/** The what-if runs kept in PostgreSQL: the one table a run writes. */
@Repository
class WhatIfRuns {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final TypeReference<List<Edit>> EDITS = new TypeReference<>() { };
    private static final TypeReference<List<String>> STRINGS = new TypeReference<>() { };
    private static final TypeReference<WhatIfView.Sides<Configuration>> CONFIGURATIONS = new TypeReference<>() { };
    private static final TypeReference<WhatIfView.Sides<Figures>> FIGURES = new TypeReference<>() { };
    private static final String UNFINISHED = "status IN ('QUEUED', 'RUNNING')";

    private final JdbcClient jdbc;

    WhatIfRuns(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    void insert(WhatIfView run) {
        jdbc.sql("""
                        INSERT INTO what_if_runs (id, started_by, created_at, status, progress, input, edits, changes,
                                                  assumptions, configurations, updated_at)
                        VALUES (:id, :by, :at, :status, 0, :input::jsonb, :edits::jsonb, :changes::jsonb,
                                :assumptions::jsonb, :configurations::jsonb, :at)""")
                .param("id", run.id()).param("by", run.startedBy()).param("at", Timestamp.from(run.createdAt()))
                .param("status", run.status().name()).param("input", JSON.writeValueAsString(run.input()))
                .param("edits", JSON.writerFor(EDITS).writeValueAsString(run.edits()))
                .param("changes", JSON.writeValueAsString(run.changes()))
                .param("assumptions", JSON.writeValueAsString(run.assumptions()))
                .param("configurations", JSON.writerFor(CONFIGURATIONS).writeValueAsString(run.configurations()))
                .update();
    }

    void running(UUID id, Instant at) {
        jdbc.sql("UPDATE what_if_runs SET status = 'RUNNING', started_at = :at, updated_at = :at WHERE id = :id"
                        + " AND status = 'QUEUED'")
                .param("id", id).param("at", Timestamp.from(at)).update();
    }

    void progress(UUID id, double progress, Instant at) {
        jdbc.sql("UPDATE what_if_runs SET progress = :progress, updated_at = :at WHERE id = :id AND status = 'RUNNING'")
                .param("id", id).param("progress", Math.min(1, Math.max(0, progress))).param("at", Timestamp.from(at))
                .update();
    }

    void done(UUID id, WhatIfView.Sides<Figures> result, Instant at) {
        jdbc.sql("""
                        UPDATE what_if_runs SET status = 'DONE', progress = 1, result = :result::jsonb, finished_at = :at,
                               updated_at = :at
                         WHERE id = :id AND status = 'RUNNING'""")
                .param("id", id).param("result", JSON.writerFor(FIGURES).writeValueAsString(result))
                .param("at", Timestamp.from(at)).update();
    }

    void failed(UUID id, String error, Instant at) {
        jdbc.sql("UPDATE what_if_runs SET status = 'FAILED', error = :error, finished_at = :at, updated_at = :at"
                        + " WHERE id = :id AND " + UNFINISHED)
                .param("id", id).param("error", error).param("at", Timestamp.from(at)).update();
    }

    /** The instance running these runs is alive. */
    void heartbeat(Collection<UUID> ids, Instant at) {
        if (!ids.isEmpty()) {
            jdbc.sql("UPDATE what_if_runs SET updated_at = :at WHERE id = ANY(:ids) AND " + UNFINISHED)
                    .param("ids", ids.toArray(UUID[]::new)).param("at", Timestamp.from(at)).update();
        }
    }

    /** Fails the unfinished runs nobody has updated since {@code before}: the instance running them is gone. */
    int abandon(Instant before, Instant at) {
        return jdbc.sql("UPDATE what_if_runs SET status = 'FAILED', error = :error, finished_at = :at, updated_at = :at"
                        + " WHERE " + UNFINISHED + " AND updated_at < :before")
                .param("error", "abandoned: the instance that ran it stopped before it finished; start it again")
                .param("before", Timestamp.from(before)).param("at", Timestamp.from(at)).update();
    }

    Optional<WhatIfView> find(UUID id) {
        return jdbc.sql("SELECT * FROM what_if_runs WHERE id = :id").param("id", id).query(WhatIfRuns::view)
                .optional();
    }

    /** The newest runs first; without their figures, which only a run's own page needs. */
    List<WhatIfView> newest(int limit) {
        return jdbc.sql("""
                        SELECT id, started_by, created_at, status, progress, input, edits, changes, assumptions,
                               configurations, NULL AS result, error, started_at, finished_at
                          FROM what_if_runs ORDER BY created_at DESC, id LIMIT :limit""")
                .param("limit", limit).query(WhatIfRuns::view).list();
    }

    private static WhatIfView view(ResultSet rs, int row) throws SQLException {
        String result = rs.getString("result");
        return new WhatIfView(rs.getObject("id", UUID.class), WhatIfStatus.valueOf(rs.getString("status")),
                rs.getDouble("progress"), rs.getString("started_by"), instant(rs, "created_at"),
                instant(rs, "started_at"), instant(rs, "finished_at"), rs.getString("error"),
                JSON.readValue(rs.getString("input"), WhatIfView.InputView.class),
                JSON.readValue(rs.getString("edits"), EDITS), JSON.readValue(rs.getString("changes"), STRINGS),
                JSON.readValue(rs.getString("assumptions"), STRINGS),
                JSON.readValue(rs.getString("configurations"), CONFIGURATIONS),
                result == null ? null : JSON.readValue(result, FIGURES));
    }

    private static Instant instant(ResultSet rs, String column) throws SQLException {
        Timestamp at = rs.getTimestamp(column);
        return at == null ? null : at.toInstant();
    }
}
