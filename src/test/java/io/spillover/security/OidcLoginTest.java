package io.spillover.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillover.support.TestDatabase;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.ContextConfiguration;

/** A client registration in configuration is all it takes to offer OpenID Connect sign-in. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "spring.security.oauth2.client.registration.corp.client-id=spillover",
        "spring.security.oauth2.client.registration.corp.client-secret=not-a-real-secret",
        "spring.security.oauth2.client.registration.corp.client-name=Corp SSO",
        "spring.security.oauth2.client.registration.corp.scope=openid,profile",
        "spring.security.oauth2.client.registration.corp.authorization-grant-type=authorization_code",
        "spring.security.oauth2.client.registration.corp.redirect-uri={baseUrl}/login/oauth2/code/{registrationId}",
        "spring.security.oauth2.client.provider.corp.authorization-uri=http://sso.invalid/authorize",
        "spring.security.oauth2.client.provider.corp.token-uri=http://sso.invalid/token",
        "spring.security.oauth2.client.provider.corp.jwk-set-uri=http://sso.invalid/jwks",
        "spring.security.oauth2.client.provider.corp.user-info-uri=http://sso.invalid/userinfo",
        "spring.security.oauth2.client.provider.corp.user-name-attribute=sub"})
@ActiveProfiles("test")
@ContextConfiguration(initializers = TestDatabase.Initializer.class)
class OidcLoginTest {

    @LocalServerPort
    int port;

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @Test
    void theLoginPageOffersTheProviderAndSendsPeopleToIt() throws Exception {
        String page = get("/login").body();
        assertThat(page).contains("Sign in with Corp SSO").contains("/oauth2/authorization/corp");

        HttpResponse<String> redirect = get("/oauth2/authorization/corp");

        assertThat(redirect.statusCode()).isEqualTo(302);
        assertThat(redirect.headers().firstValue("Location").orElseThrow())
                .startsWith("http://sso.invalid/authorize?").contains("client_id=spillover").contains("scope=openid");
    }

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
