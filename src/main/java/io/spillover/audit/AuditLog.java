package io.spillover.audit;

import java.sql.Timestamp;
import java.util.List;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** Writes and reads the audit log; the database refuses to change or delete what is written. */
@Repository
public class AuditLog {

    private final JdbcClient jdbc;

    AuditLog(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    public void record(AuditEntry entry) {
        jdbc.sql("INSERT INTO audit_log (at, actor, action, target, outcome, source) VALUES (?, ?, ?, ?, ?, ?)")
                .params(Timestamp.from(entry.at()), entry.actor(), entry.action(), entry.target(), entry.outcome(),
                        entry.source())
                .update();
    }

    /** The newest entries first. */
    public List<AuditEntry> recent(int page, int size) {
        return jdbc.sql("SELECT at, actor, action, target, outcome, source FROM audit_log ORDER BY id DESC"
                        + " LIMIT ? OFFSET ?")
                .params(size, (long) page * size)
                .query((rs, n) -> new AuditEntry(rs.getTimestamp("at").toInstant(), rs.getString("actor"),
                        rs.getString("action"), rs.getString("target"), rs.getString("outcome"), rs.getString("source")))
                .list();
    }
}
