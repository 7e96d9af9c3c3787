package io.spillover.security;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** People and their memberships. */
@Repository
class Users {

    /** A stored user, with the hash of their password. */
    record StoredUser(String username, String displayName, String passwordHash, boolean platformAdmin,
                      boolean disabled) {
    }

    private final JdbcClient jdbc;

    Users(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    Optional<StoredUser> find(String username) {
        return jdbc.sql("SELECT username, display_name, password_hash, platform_admin, disabled FROM users"
                        + " WHERE username = ?")
                .param(username)
                .query((rs, n) -> new StoredUser(rs.getString(1), rs.getString(2), rs.getString(3), rs.getBoolean(4),
                        rs.getBoolean(5)))
                .optional();
    }

    List<StoredUser> all() {
        return jdbc.sql("SELECT username, display_name, password_hash, platform_admin, disabled FROM users"
                        + " ORDER BY username")
                .query((rs, n) -> new StoredUser(rs.getString(1), rs.getString(2), rs.getString(3), rs.getBoolean(4),
                        rs.getBoolean(5)))
                .list();
    }

    long count() {
        return jdbc.sql("SELECT count(*) FROM users").query(Long.class).single();
    }

    /** Creates or changes a user; a null password hash keeps the stored one. Answers whether it was created. */
    boolean save(String username, String displayName, String passwordHash, boolean platformAdmin, boolean disabled,
                 Instant now) {
        return jdbc.sql("""
                        INSERT INTO users (username, display_name, password_hash, platform_admin, disabled,
                                           created_at, updated_at)
                        VALUES (:username, :displayName, :hash, :admin, :disabled, :now, :now)
                        ON CONFLICT (username) DO UPDATE SET display_name = excluded.display_name,
                            password_hash = coalesce(excluded.password_hash, users.password_hash),
                            platform_admin = excluded.platform_admin, disabled = excluded.disabled,
                            updated_at = excluded.updated_at
                        RETURNING (xmax = 0)""")
                .param("username", username).param("displayName", displayName).param("hash", passwordHash)
                .param("admin", platformAdmin).param("disabled", disabled).param("now", Timestamp.from(now))
                .query(Boolean.class).single();
    }

    Map<String, TeamRole> memberships(String username) {
        var memberships = new HashMap<String, TeamRole>();
        jdbc.sql("SELECT team, role FROM memberships WHERE username = ?").param(username)
                .query(rs -> {
                    memberships.put(rs.getString("team"), TeamRole.valueOf(rs.getString("role")));
                });
        return memberships;
    }

    void setMembership(String username, String team, TeamRole role) {
        jdbc.sql("INSERT INTO memberships (username, team, role) VALUES (?, ?, ?)"
                        + " ON CONFLICT (username, team) DO UPDATE SET role = excluded.role")
                .params(username, team, role.name()).update();
    }

    boolean removeMembership(String username, String team) {
        return jdbc.sql("DELETE FROM memberships WHERE username = ? AND team = ?").params(username, team).update() > 0;
    }
}
