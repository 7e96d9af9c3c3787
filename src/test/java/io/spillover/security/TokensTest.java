package io.spillover.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillover.support.Api;
import io.spillover.support.ApiTest;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;

/** API tokens: shown once, listed without secrets, revocable, expiring, and never stored in clear. */
class TokensTest extends ApiTest {

    @Autowired
    JdbcClient jdbc;

    @Test
    void aTeamTokenSubmitsForItsTeamAndIsListedWithoutItsSecret() {
        capacity("ml.m5.xlarge", 1);
        String team = team(Map.of("ml.m5.xlarge", 1));
        JsonNode issued = expect(api.post("/api/v1/teams/" + team + "/tokens",
                Map.of("name", "pipeline", "role", "MEMBER")), 201).json();
        String secret = issued.get("secret").asString();
        Api pipeline = api.as(secret);

        assertThat(secret).startsWith("spl_");
        assertThat(pipeline.post("/api/v1/teams/" + team + "/jobs", job("from-ci", entry("ml.m5.xlarge", 1))).status())
                .isEqualTo(201);
        JsonNode listed = expect(api.get("/api/v1/teams/" + team + "/tokens"), 200).json().get(0);
        assertThat(listed.get("name").asString()).isEqualTo("pipeline");
        assertThat(listed.has("secret")).isFalse();
        assertThat(listed.get("lastUsedAt").isNull()).isFalse();
    }

    @Test
    void aRevokedTokenIsRefused() {
        String team = team(Map.of());
        JsonNode issued = expect(api.post("/api/v1/teams/" + team + "/tokens",
                Map.of("name", "short-lived", "role", "MEMBER")), 201).json();
        Api holder = api.as(issued.get("secret").asString());
        assertThat(holder.get("/api/v1/teams/" + team + "/jobs").status()).isEqualTo(200);

        expect(api.delete("/api/v1/teams/" + team + "/tokens/" + issued.get("id").asString()), 204);

        assertThat(holder.get("/api/v1/teams/" + team + "/jobs").status()).isEqualTo(401);
    }

    @Test
    void anExpiredTokenIsRefusedAndAnExpiryInThePastIsRejected() {
        String team = team(Map.of());
        JsonNode issued = expect(api.post("/api/v1/teams/" + team + "/tokens", Map.of("name", "soon",
                "role", "MEMBER", "expiresAt", Instant.now().plusSeconds(1).toString())), 201).json();
        Api holder = api.as(issued.get("secret").asString());

        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(5))
                .pollInterval(java.time.Duration.ofMillis(100))
                .until(() -> holder.get("/api/v1/me").status() == 401);
        assertThat(api.post("/api/v1/teams/" + team + "/tokens", Map.of("name", "past", "role", "MEMBER",
                "expiresAt", "2020-01-01T00:00:00Z")).status()).isEqualTo(400);
    }

    @Test
    void aTokenWithAWrongSecretIsRefusedAndAudited() {
        String team = team(Map.of());
        String secret = expect(api.post("/api/v1/teams/" + team + "/tokens",
                Map.of("name", "real", "role", "MEMBER")), 201).json().get("secret").asString();
        String forged = secret.substring(0, secret.length() - 4) + "AAAA";

        Api.Response refused = api.as(forged).get("/api/v1/teams/" + team + "/jobs");

        assertThat(refused.status()).isEqualTo(401);
        assertThat(refused.text()).doesNotContain(forged);
        assertThat(api.get("/api/v1/admin/audit").json().toString()).contains("TOKEN_REFUSED");
    }

    /** BCrypt reads 72 bytes of a password: a longer one is refused, not cut (ApiFuzzTest found it as a 500). */
    @Test
    void aPasswordLongerThanBcryptReadsIsRefusedNamingTheField() {
        JsonNode tooLong = expect(api.put("/api/v1/admin/users/long-password", Map.of("displayName", "Long",
                "password", "p".repeat(73))), 400).json();
        JsonNode tooManyBytes = expect(api.put("/api/v1/admin/users/long-password", Map.of("displayName", "Long",
                "password", "é".repeat(40))), 400).json();

        assertThat(tooLong.get("errors").get(0).get("field").asString()).isEqualTo("password");
        assertThat(tooManyBytes.get("errors").get(0).get("message").asString())
                .isEqualTo("must be at most 72 bytes in UTF-8");
        assertThat(api.get("/api/v1/admin/users/long-password").status()).isEqualTo(404);
    }

    @Test
    void theDatabaseHoldsNoTokenOrPasswordInClear() {
        String team = team(Map.of());
        String secret = expect(api.post("/api/v1/teams/" + team + "/tokens",
                Map.of("name", "secret-check", "role", "TEAM_ADMIN")), 201).json().get("secret").asString();
        String password = "correct-horse-battery-staple";
        expect(api.put("/api/v1/admin/users/clear-check", Map.of("displayName", "Clear", "password", password)), 201);

        List<String> rows = jdbc.sql("SELECT row_to_json(t)::text FROM api_tokens t UNION ALL"
                + " SELECT row_to_json(u)::text FROM users u UNION ALL SELECT row_to_json(a)::text FROM audit_log a")
                .query(String.class).list();

        // spl_<id>_<secret>: the secret is base64url and may itself hold '_', so split on the first two only.
        String secretPart = secret.split("_", 3)[2];
        assertThat(secretPart).hasSize(40);
        assertThat(rows).isNotEmpty().noneMatch(row -> row.contains(secretPart) || row.contains(password)
                || row.contains(ADMIN_TOKEN));
    }

    @Test
    void teamAdminsManageTokensButMembersCannot() {
        String team = team(Map.of());
        Api admin = api.as(expect(api.post("/api/v1/teams/" + team + "/tokens",
                Map.of("name", "lead", "role", "TEAM_ADMIN")), 201).json().get("secret").asString());
        Api member = api.as(expect(admin.post("/api/v1/teams/" + team + "/tokens",
                Map.of("name", "ci", "role", "MEMBER")), 201).json().get("secret").asString());

        assertThat(member.post("/api/v1/teams/" + team + "/tokens", Map.of("name", "x", "role", "TEAM_ADMIN")).status())
                .isEqualTo(403);
        assertThat(admin.get("/api/v1/teams/" + team + "/tokens").json().size()).isEqualTo(2);
    }
}
