package io.spillover.profiles;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import tools.jackson.databind.json.JsonMapper;

/** Profile versions by team; every query names the team. */
@Repository
class Profiles {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final JdbcClient jdbc;

    Profiles(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** Stores the next version; answers its number. */
    int save(String team, String name, ProfileDefinition definition, String by, Instant now) {
        return jdbc.sql("""
                        INSERT INTO profiles (team, name, version, body, created_at, created_by)
                        SELECT ?, ?, coalesce(max(version), 0) + 1, ?::jsonb, ?, ?
                          FROM profiles WHERE team = ? AND name = ?
                        RETURNING version""")
                .params(team, name, JSON.writeValueAsString(definition), Timestamp.from(now), by, team, name)
                .query(Integer.class).single();
    }

    /** The latest version, unless the profile was deleted. */
    Optional<ProfileView> latest(String team, String name) {
        return jdbc.sql("""
                        SELECT team, name, version, body::text AS body, created_at, created_by FROM profiles
                         WHERE team = ? AND name = ? AND NOT deleted ORDER BY version DESC LIMIT 1""")
                .params(team, name).query((rs, n) -> view(rs)).optional();
    }

    List<ProfileView> latestOfTeam(String team) {
        return jdbc.sql("""
                        SELECT DISTINCT ON (name) team, name, version, body::text AS body, created_at, created_by
                          FROM profiles WHERE team = ? AND NOT deleted ORDER BY name, version DESC""")
                .param(team).query((rs, n) -> view(rs)).list();
    }

    boolean delete(String team, String name) {
        return jdbc.sql("UPDATE profiles SET deleted = true WHERE team = ? AND name = ? AND NOT deleted")
                .params(team, name).update() > 0;
    }

    private static ProfileView view(java.sql.ResultSet rs) throws java.sql.SQLException {
        return new ProfileView(rs.getString("team"), rs.getString("name"), rs.getInt("version"),
                JSON.readValue(rs.getString("body"), ProfileDefinition.class), rs.getTimestamp("created_at").toInstant(),
                rs.getString("created_by"));
    }
}
