package io.spillover.security;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * API tokens, stored as a salt and a SHA-256 hash of the secret; the secret itself is never stored. A token's access
 * key for SigV4 is stored with its secret sealed ({@link io.spillover.system.SecretBox}): a signature can only be
 * checked with the secret itself.
 */
@Repository
class ApiTokens {

    record StoredToken(String id, String team, String role, String name, byte[] salt, byte[] hash, Instant createdAt,
                       String createdBy, Instant expiresAt, Instant lastUsedAt, Instant revokedAt,
                       String accessKeyId, byte[] accessKeySecret, String accessKeySealedUnder) {

        StoredToken(String id, String team, String role, String name, byte[] salt, byte[] hash, Instant createdAt,
                    String createdBy, Instant expiresAt, Instant lastUsedAt, Instant revokedAt) {
            this(id, team, role, name, salt, hash, createdAt, createdBy, expiresAt, lastUsedAt, revokedAt, null, null,
                    null);
        }

        TokenView view(String secret) {
            return view(secret, null);
        }

        TokenView view(String secret, String secretAccessKey) {
            return new TokenView(id, team, name, role, createdAt, createdBy, expiresAt, lastUsedAt, revokedAt, secret,
                    accessKeyId, secretAccessKey);
        }

        boolean usable(Instant now) {
            return revokedAt == null && (expiresAt == null || expiresAt.isAfter(now));
        }
    }

    private static final String COLUMNS = "id, team, role, name, salt, secret_hash, created_at, created_by, expires_at,"
            + " last_used_at, revoked_at, access_key_id, access_key_secret, access_key_sealed_under";

    private final JdbcClient jdbc;

    ApiTokens(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    void insert(StoredToken token) {
        jdbc.sql("INSERT INTO api_tokens (" + COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL, ?, ?, ?)")
                .params(token.id(), token.team(), token.role(), token.name(), token.salt(), token.hash(),
                        Timestamp.from(token.createdAt()), token.createdBy(), timestamp(token.expiresAt()),
                        token.accessKeyId(), token.accessKeySecret(), token.accessKeySealedUnder())
                .update();
    }

    /** Replaces a token's secret (the bootstrap token, when its configured value changes). */
    void upsertSecret(StoredToken token) {
        jdbc.sql("INSERT INTO api_tokens (" + COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL, NULL, NULL,"
                        + " NULL, NULL)"
                        + " ON CONFLICT (id) DO UPDATE SET salt = excluded.salt, secret_hash = excluded.secret_hash,"
                        + " revoked_at = NULL")
                .params(token.id(), token.team(), token.role(), token.name(), token.salt(), token.hash(),
                        Timestamp.from(token.createdAt()), token.createdBy())
                .update();
    }

    Optional<StoredToken> find(String id) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM api_tokens WHERE id = ?").param(id)
                .query(ApiTokens::row).optional();
    }

    /** The token that carries the access key. */
    Optional<StoredToken> findByAccessKey(String accessKeyId) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM api_tokens WHERE access_key_id = ?").param(accessKeyId)
                .query(ApiTokens::row).optional();
    }

    /** A team's tokens, or the platform-admin tokens when {@code team} is null. */
    List<StoredToken> of(String team) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM api_tokens WHERE team IS NOT DISTINCT FROM ? ORDER BY created_at")
                .param(team).query(ApiTokens::row).list();
    }

    boolean revoke(String team, String id, Instant now) {
        return jdbc.sql("UPDATE api_tokens SET revoked_at = ? WHERE id = ? AND team IS NOT DISTINCT FROM ?"
                        + " AND revoked_at IS NULL")
                .params(Timestamp.from(now), id, team).update() > 0;
    }

    /** Notes a use, at most once a minute per token, so that reads do not turn into a write each. */
    void touch(String id, Instant now) {
        jdbc.sql("UPDATE api_tokens SET last_used_at = ? WHERE id = ?"
                        + " AND (last_used_at IS NULL OR last_used_at < ?)")
                .params(Timestamp.from(now), id, Timestamp.from(now.minusSeconds(60))).update();
    }

    private static StoredToken row(ResultSet rs, int n) throws SQLException {
        return new StoredToken(rs.getString("id"), rs.getString("team"), rs.getString("role"), rs.getString("name"),
                rs.getBytes("salt"), rs.getBytes("secret_hash"), instant(rs, "created_at"), rs.getString("created_by"),
                instant(rs, "expires_at"), instant(rs, "last_used_at"), instant(rs, "revoked_at"),
                rs.getString("access_key_id"), rs.getBytes("access_key_secret"), rs.getString("access_key_sealed_under"));
    }

    private static Instant instant(ResultSet rs, String column) throws SQLException {
        Timestamp value = rs.getTimestamp(column);
        return value == null ? null : value.toInstant();
    }

    private static Timestamp timestamp(Instant instant) {
        return instant == null ? null : Timestamp.from(instant);
    }
}
