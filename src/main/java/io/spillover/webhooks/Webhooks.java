package io.spillover.webhooks;

import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The teams' hooks; every query takes the team. */
@Repository
class Webhooks {

    private final JdbcClient jdbc;

    Webhooks(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** A hook as stored, with its id. */
    record Stored(long id, WebhookView view) {
    }

    Optional<Stored> find(String team, String name) {
        return jdbc.sql("SELECT * FROM webhooks WHERE team = ? AND name = ?").params(team, name)
                .query(Webhooks::stored).optional();
    }

    List<WebhookView> of(String team) {
        return jdbc.sql("SELECT * FROM webhooks WHERE team = ? ORDER BY name").param(team)
                .query(Webhooks::stored).list().stream().map(Stored::view).toList();
    }

    int count(String team) {
        return jdbc.sql("SELECT count(*) FROM webhooks WHERE team = ?").param(team).query(Integer.class).single();
    }

    void insert(String team, String name, WebhookDefinition hook, String glob, byte[] secret, String keyId,
                String by, Instant now) {
        jdbc.sql("""
                        INSERT INTO webhooks (team, name, url, events, job_name_glob, job_name_pattern, secret,
                                              secret_key_id, created_at, created_by, updated_at)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""")
                .params(team, name, hook.url().trim(), hook.events().toArray(String[]::new), glob,
                        Outbox.likePattern(glob), secret, keyId, Timestamp.from(now), by, Timestamp.from(now))
                .update();
    }

    /** Changes where and what a hook sends, and enables it again; its secret stays. */
    void update(String team, String name, WebhookDefinition hook, String glob, Instant now) {
        jdbc.sql("""
                        UPDATE webhooks SET url = ?, events = ?, job_name_glob = ?, job_name_pattern = ?, enabled = true,
                                            disabled_reason = NULL, updated_at = ?
                         WHERE team = ? AND name = ?""")
                .params(hook.url().trim(), hook.events().toArray(String[]::new), glob, Outbox.likePattern(glob),
                        Timestamp.from(now), team, name)
                .update();
    }

    boolean delete(String team, String name) {
        return jdbc.sql("DELETE FROM webhooks WHERE team = ? AND name = ?").params(team, name).update() > 0;
    }

    private static Stored stored(ResultSet rs, int n) throws SQLException {
        Array events = rs.getArray("events");
        return new Stored(rs.getLong("id"), new WebhookView(rs.getString("name"), rs.getString("team"),
                rs.getString("url"), Arrays.asList((String[]) events.getArray()), rs.getString("job_name_glob"),
                rs.getBoolean("enabled"), rs.getString("disabled_reason"), rs.getTimestamp("created_at").toInstant(),
                rs.getString("created_by"), rs.getTimestamp("updated_at").toInstant(), null));
    }
}
