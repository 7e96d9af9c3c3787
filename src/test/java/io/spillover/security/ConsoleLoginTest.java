package io.spillover.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillover.support.ApiTest;
import io.spillover.support.ConsoleSession;
import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Console sign-in with a session: login, logout, and forms refused without their CSRF token. */
class ConsoleLoginTest extends ApiTest {

    static final String PASSWORD = "a-console-password-42";

    private ConsoleSession browser;
    private String username;
    private String team;

    @BeforeEach
    void aPersonInATeam() {
        browser = new ConsoleSession(port());
        team = team(Map.of());
        username = "person-" + team;
        expect(api.put("/api/v1/admin/users/" + username, Map.of("displayName", "A Person", "password", PASSWORD)), 201);
        expect(api.put("/api/v1/admin/users/" + username + "/memberships/" + team, Map.of("role", "MEMBER")), 200);
    }

    @Test
    void signsInSeesTheirTeamsAndSignsOut() {
        assertThat(browser.get("/").statusCode()).isEqualTo(302);

        HttpResponse<String> signedIn = browser.signIn(username, PASSWORD);
        assertThat(signedIn.statusCode()).isEqualTo(302);
        HttpResponse<String> home = browser.get("/");
        assertThat(home.statusCode()).isEqualTo(200);
        assertThat(home.body()).contains("<span class=\"who\">" + username + "</span>").contains("/teams/" + team + "/jobs");

        HttpResponse<String> signedOut = browser.post("/logout", Map.of("_csrf", browser.csrf("/")));
        assertThat(signedOut.statusCode()).isEqualTo(302);
        assertThat(signedOut.headers().firstValue("Location").orElseThrow()).endsWith("/login?logout");
        assertThat(browser.get("/").statusCode()).isEqualTo(302);
    }

    @Test
    void refusesAFormWithoutItsCsrfToken() {
        browser.signIn(username, PASSWORD);

        assertThat(browser.post("/logout", Map.of()).statusCode()).isEqualTo(403);
        assertThat(browser.post("/logout", Map.of("_csrf", "forged")).statusCode()).isEqualTo(403);
        assertThat(browser.get("/").statusCode()).as("still signed in").isEqualTo(200);
    }

    @Test
    void aWrongPasswordIsRefusedAndAudited() {
        HttpResponse<String> refused = browser.signIn(username, "wrong-password");

        assertThat(refused.headers().firstValue("Location").orElseThrow()).endsWith("/login?error");
        assertThat(browser.get("/").statusCode()).isEqualTo(302);
        assertThat(api.get("/api/v1/admin/audit").json().toString()).contains("LOGIN_FAILED").contains(username);
    }

    @Test
    void aSessionDoesNotOpenTheApi() {
        browser.signIn(username, PASSWORD);

        assertThat(browser.get("/api/v1/me").statusCode()).isEqualTo(401);
    }
}
