package io.spillover.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillover.support.ApiTest;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/** Guessing tokens from one address is cut off with a clear 429; other addresses are unaffected. */
class FailureLimitTest extends ApiTest {

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @Test
    void anAddressThatSendsTooManyBadTokensIsToldToWait() throws Exception {
        for (int i = 0; i < 20; i++) {
            assertThat(call("203.0.113.7", "spl_000000000000_guess" + i).statusCode()).isEqualTo(401);
        }

        HttpResponse<String> limited = call("203.0.113.7", ADMIN_TOKEN);

        assertThat(limited.statusCode()).isEqualTo(429);
        assertThat(limited.headers().firstValue("Retry-After")).isPresent();
        assertThat(limited.body()).contains("too many failed attempts");
        assertThat(call("203.0.113.8", ADMIN_TOKEN).statusCode()).as("another address").isEqualTo(200);
    }

    private HttpResponse<String> call(String from, String token) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port() + "/api/v1/me"))
                .header("Authorization", "Bearer " + token).header("X-Forwarded-For", from).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
