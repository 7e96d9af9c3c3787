package io.spillover.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillover.support.ApiTest;
import java.io.IOException;
import java.net.CookieManager;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Console sign-in with a session: login, logout, and forms refused without their CSRF token. */
class ConsoleLoginTest extends ApiTest {

    static final String PASSWORD = "a-console-password-42";
    private static final Pattern CSRF = Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"");

    private HttpClient browser;
    private String username;
    private String team;

    @BeforeEach
    void aPersonInATeam() {
        browser = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).cookieHandler(new CookieManager()).build();
        team = team(Map.of());
        username = "person-" + team;
        expect(api.put("/api/v1/admin/users/" + username, Map.of("displayName", "A Person", "password", PASSWORD)), 201);
        expect(api.put("/api/v1/admin/users/" + username + "/memberships/" + team, Map.of("role", "MEMBER")), 200);
    }

    @Test
    void signsInSeesTheirTeamsAndSignsOut() throws Exception {
        assertThat(get("/").statusCode()).isEqualTo(302);

        HttpResponse<String> signedIn = post("/login", Map.of("username", username, "password", PASSWORD,
                "_csrf", csrf("/login")));
        assertThat(signedIn.statusCode()).isEqualTo(302);
        HttpResponse<String> home = get("/");
        assertThat(home.statusCode()).isEqualTo(200);
        assertThat(home.body()).contains("<span class=\"who\">" + username + "</span>").contains("/teams/" + team + "/jobs");

        HttpResponse<String> signedOut = post("/logout", Map.of("_csrf", csrf("/")));
        assertThat(signedOut.statusCode()).isEqualTo(302);
        assertThat(signedOut.headers().firstValue("Location").orElseThrow()).endsWith("/login?logout");
        assertThat(get("/").statusCode()).isEqualTo(302);
    }

    @Test
    void refusesAFormWithoutItsCsrfToken() throws Exception {
        post("/login", Map.of("username", username, "password", PASSWORD, "_csrf", csrf("/login")));

        assertThat(post("/logout", Map.of()).statusCode()).isEqualTo(403);
        assertThat(post("/logout", Map.of("_csrf", "forged")).statusCode()).isEqualTo(403);
        assertThat(get("/").statusCode()).as("still signed in").isEqualTo(200);
    }

    @Test
    void aWrongPasswordIsRefusedAndAudited() throws Exception {
        HttpResponse<String> refused = post("/login", Map.of("username", username, "password", "wrong-password",
                "_csrf", csrf("/login")));

        assertThat(refused.headers().firstValue("Location").orElseThrow()).endsWith("/login?error");
        assertThat(get("/").statusCode()).isEqualTo(302);
        assertThat(api.get("/api/v1/admin/audit").json().toString()).contains("LOGIN_FAILED").contains(username);
    }

    @Test
    void aSessionDoesNotOpenTheApi() throws Exception {
        post("/login", Map.of("username", username, "password", PASSWORD, "_csrf", csrf("/login")));

        assertThat(get("/api/v1/me").statusCode()).isEqualTo(401);
    }

    private String csrf(String page) throws IOException, InterruptedException {
        Matcher matcher = CSRF.matcher(get(page).body());
        assertThat(matcher.find()).as("a CSRF token on " + page).isTrue();
        return matcher.group(1);
    }

    private HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return browser.send(HttpRequest.newBuilder(uri(path)).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> post(String path, Map<String, String> form) throws IOException, InterruptedException {
        String body = form.entrySet().stream()
                .map(e -> e.getKey() + "=" + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
                .collect(Collectors.joining("&"));
        return browser.send(HttpRequest.newBuilder(uri(path)).header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private URI uri(String path) {
        return URI.create("http://localhost:" + port() + path);
    }
}
