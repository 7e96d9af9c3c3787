package io.spillover.audit;

import java.sql.Timestamp;
import java.util.List;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** Writes and reads the audit log; the database refuses to change or delete what is written. */
@Repository
public class AuditLog {

    private static final String INSERT =
            "INSERT INTO audit_log (at, actor, action, target, outcome, source) VALUES (?, ?, ?, ?, ?, ?)";

    private final JdbcClient jdbc;
    private final JdbcTemplate batches;

    AuditLog(JdbcClient jdbc, JdbcTemplate batches) {
        this.jdbc = jdbc;
        this.batches = batches;
    }

    public void record(AuditEntry entry) {
        jdbc.sql(INSERT).params(Timestamp.from(entry.at()), entry.actor(), entry.action(), entry.target(),
                entry.outcome(), entry.source()).update();
    }

    /**
     * The entries in the order given, as one batch: one round trip to the database for all of them, where a group of
     * submissions committed together would otherwise make one per job while the next group waits for its turn.
     */
    void recordAll(List<AuditEntry> entries) {
        if (entries.size() == 1) {
            record(entries.get(0));
            return;
        }
        batches.batchUpdate(INSERT, entries, entries.size(), (statement, entry) -> {
            statement.setTimestamp(1, Timestamp.from(entry.at()));
            statement.setString(2, entry.actor());
            statement.setString(3, entry.action());
            statement.setString(4, entry.target());
            statement.setString(5, entry.outcome());
            statement.setString(6, entry.source());
        });
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
