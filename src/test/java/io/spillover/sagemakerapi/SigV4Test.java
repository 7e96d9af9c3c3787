package io.spillover.sagemakerapi;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;

/**
 * The server's check of SigV4 against the AWS SDK's own signer: what the SDK signs holds, over any path, query and
 * body, and any change to what was signed, the secret or the time breaks it with AWS's error code.
 */
class SigV4Test {

    static final String KEY = "SPLKABCDEFGHIJKLMNOP";
    static final String SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
    static final Instant NOW = Instant.parse("2026-12-06T10:00:00Z");
    static final String BODY = "{\"TrainingJobName\":\"llama-ft-42\"}";

    @Test
    void aRequestTheSdkSignedHolds() {
        assertThat(check(signed("/sagemaker/", null, BODY, NOW), BODY, SECRET, NOW)).isEmpty();
    }

    @Test
    void pathsAndQueriesAreCanonicalAsTheSdkMakesThem() {
        assertThat(check(signed("/sage%20maker/a~b/%C3%A9", "b=2&a=1&a=0&c=x%20y", BODY, NOW), BODY, SECRET, NOW))
                .isEmpty();
    }

    @Test
    void anotherSecretIsRefusedAsAwsRefusesIt() {
        assertThat(check(signed("/sagemaker/", null, BODY, NOW), BODY, SECRET + "x", NOW))
                .hasValueSatisfying(r -> assertThat(r.code()).isEqualTo("InvalidSignatureException"));
    }

    @Test
    void aBodyChangedAfterSigningIsRefused() {
        assertThat(check(signed("/sagemaker/", null, BODY, NOW), BODY.replace("42", "43"), SECRET, NOW))
                .hasValueSatisfying(r -> assertThat(r.code()).isEqualTo("InvalidSignatureException"));
    }

    @Test
    void onlyTheSignedHeadersCount() {
        Map<String, List<String>> headers = signed("/sagemaker/", null, BODY, NOW);
        var unsignedChanged = new TreeMap<>(headers);
        unsignedChanged.put("user-agent", List.of("changed on the way"));
        var signedChanged = new TreeMap<>(headers);
        signedChanged.put("x-amz-target", List.of("SageMaker.StopTrainingJob"));

        assertThat(check(unsignedChanged, BODY, SECRET, NOW)).isEmpty();
        assertThat(check(signedChanged, BODY, SECRET, NOW))
                .hasValueSatisfying(r -> assertThat(r.code()).isEqualTo("InvalidSignatureException"));
    }

    @Test
    void aTimeMoreThanFifteenMinutesOffEitherWayIsRefused() {
        Instant signedAt = NOW.minus(Duration.ofMinutes(16));
        Instant ahead = NOW.plus(Duration.ofMinutes(16));

        assertThat(check(signed("/sagemaker/", null, BODY, NOW.minus(Duration.ofMinutes(14))), BODY, SECRET, NOW))
                .isEmpty();
        assertThat(check(signed("/sagemaker/", null, BODY, signedAt), BODY, SECRET, NOW))
                .hasValueSatisfying(r -> assertThat(r.message()).startsWith("Signature expired: 20261206T094400Z is"
                        + " now earlier than 20261206T094500Z"));
        assertThat(check(signed("/sagemaker/", null, BODY, ahead), BODY, SECRET, NOW))
                .hasValueSatisfying(r -> assertThat(r.message()).startsWith("Signature not yet current"));
    }

    @Test
    void aDeclaredPayloadHashThatIsNotTheBodysIsRefused() {
        var headers = new TreeMap<>(signed("/sagemaker/", null, BODY, NOW));
        headers.put("x-amz-content-sha256", List.of("0".repeat(64)));

        assertThat(check(headers, BODY, SECRET, NOW)).hasValueSatisfying(r -> assertThat(r.message())
                .isEqualTo("The provided 'x-amz-content-sha256' header does not match what was computed."));
    }

    @Test
    void anAuthorizationOfAnotherShapeIsIncompleteAndNoneIsMissing() {
        assertThat(SigV4.parse("Bearer spl_x").refusal().code()).isEqualTo("IncompleteSignatureException");
        assertThat(SigV4.parse("AWS4-HMAC-SHA256 Credential=K/2026/us-east-1/sagemaker/aws4_request,"
                + " SignedHeaders=host, Signature=ab").refusal().code()).isEqualTo("IncompleteSignatureException");
        assertThat(SigV4.parse(null).refusal().code()).isEqualTo("MissingAuthenticationTokenException");
    }

    @Test
    void aKeyScopedToAnotherServiceIsRefused() {
        Map<String, List<String>> headers = sign("/sagemaker/", null, BODY, NOW, "s3");

        assertThat(check(headers, BODY, SECRET, NOW)).hasValueSatisfying(r -> assertThat(r.message())
                .isEqualTo("Credential should be scoped to correct service: 'sagemaker'."));
    }

    private static Map<String, List<String>> signed(String path, String query, String body, Instant at) {
        return sign(path, query, body, at, "sagemaker");
    }

    /** The headers the SDK's signer adds to a POST of the body, lower-cased as a server reads them. */
    private static Map<String, List<String>> sign(String path, String query, String body, Instant at, String service) {
        var request = SdkHttpRequest.builder().method(SdkHttpMethod.POST)
                .uri(URI.create("http://localhost:8080" + path + (query == null ? "" : "?" + query)))
                .putHeader("Content-Type", "application/x-amz-json-1.1")
                .putHeader("X-Amz-Target", "SageMaker.DescribeTrainingJob")
                .putHeader("User-Agent", "aws-sdk-java/2.40.2")
                .build();
        var signed = AwsV4HttpSigner.create().sign(r -> r.identity(AwsCredentialsIdentity.create(KEY, SECRET))
                .request(request).payload(ContentStreamProvider.fromUtf8String(body))
                .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, service)
                .putProperty(AwsV4HttpSigner.REGION_NAME, "eu-west-1")
                .putProperty(AwsV4HttpSigner.SIGNING_CLOCK, Clock.fixed(at, ZoneOffset.UTC)));
        var headers = new TreeMap<String, List<String>>();
        signed.request().headers().forEach((name, values) -> headers.put(name.toLowerCase(Locale.ROOT), values));
        headers.put(":path", List.of(signed.request().encodedPath()));
        headers.put(":query", signed.request().encodedQueryParameters().map(List::of).orElse(List.of()));
        return headers;
    }

    private static Optional<SigV4.Refusal> check(Map<String, List<String>> headers, String body, String secret,
                                                 Instant now) {
        var auth = SigV4.parse(headers.get("authorization").get(0));
        assertThat(auth.refusal()).isNull();
        List<String> query = headers.get(":query");
        var request = new SigV4.Request("POST", headers.get(":path").get(0), query.isEmpty() ? null : query.get(0),
                name -> headers.getOrDefault(name, List.of()), body.getBytes(StandardCharsets.UTF_8));
        return SigV4.verify(auth.value(), request, secret, now);
    }
}
