package io.spillover.support;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.SignedRequest;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;

/**
 * Raw calls of Spillover's SageMaker endpoint, signed by the AWS SDK's own SigV4 signer ({@code AwsV4HttpSigner}) as
 * any AWS client signs, so a test can send any body, target or key (a wrong secret, a clock that is off) and read
 * the answer as it comes. {@code X-Forwarded-For} (unsigned, as a proxy adds it) names the caller's address.
 */
public final class SignedCalls {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    /** Headers java.net.http sets itself and will not take from a caller. */
    private static final Set<String> RESTRICTED = Set.of("host", "content-length", "connection", "expect");

    private final int port;
    private final String accessKeyId;
    private final String secret;
    private final String region;
    private final Clock clock;
    private final String address;

    public SignedCalls(int port, String accessKeyId, String secret, String region) {
        this(port, accessKeyId, secret, region, Clock.systemUTC(), null);
    }

    private SignedCalls(int port, String accessKeyId, String secret, String region, Clock clock, String address) {
        this.port = port;
        this.accessKeyId = accessKeyId;
        this.secret = secret;
        this.region = region;
        this.clock = clock;
        this.address = address;
    }

    /** The same caller signing with another secret. */
    public SignedCalls withSecret(String other) {
        return new SignedCalls(port, accessKeyId, other, region, clock, address);
    }

    /** The same caller with a clock that is off by {@code skew}. */
    public SignedCalls skewedBy(Duration skew) {
        return new SignedCalls(port, accessKeyId, secret, region, Clock.offset(clock, skew), address);
    }

    /** The same caller calling from another address. */
    public SignedCalls from(String forwardedFor) {
        return new SignedCalls(port, accessKeyId, secret, region, clock, forwardedFor);
    }

    /** {@code SageMaker.<operation>} with the body as it is, signed. */
    public Api.Response call(String operation, String body) {
        return send("SageMaker." + operation, body, true);
    }

    /** {@code SageMaker.<operation>} with a map as its JSON body, signed. */
    public Api.Response call(String operation, Map<String, ?> body) {
        return call(operation, Api.JSON.writeValueAsString(body));
    }

    /** Any target, signed or not. */
    public Api.Response send(String target, String body, boolean signed) {
        SdkHttpRequest.Builder request = SdkHttpRequest.builder().method(SdkHttpMethod.POST)
                .uri(URI.create("http://localhost:" + port + "/sagemaker/"))
                .putHeader("Content-Type", "application/x-amz-json-1.1");
        if (target != null) {
            request.putHeader("X-Amz-Target", target);
        }
        Map<String, List<String>> headers = request.build().headers();
        if (signed) {
            SignedRequest signedRequest = AwsV4HttpSigner.create().sign(r -> r
                    .identity(AwsCredentialsIdentity.create(accessKeyId, secret))
                    .request(request.build())
                    .payload(ContentStreamProvider.fromUtf8String(body))
                    .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "sagemaker")
                    .putProperty(AwsV4HttpSigner.REGION_NAME, region)
                    .putProperty(AwsV4HttpSigner.SIGNING_CLOCK, clock));
            headers = signedRequest.request().headers();
        }
        var http = HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/sagemaker/"))
                .timeout(Duration.ofSeconds(30))
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
        headers.forEach((name, values) -> {
            if (!RESTRICTED.contains(name.toLowerCase())) {
                values.forEach(value -> http.header(name, value));
            }
        });
        if (address != null) {
            http.header("X-Forwarded-For", address);
        }
        try {
            HttpResponse<String> response = HTTP.send(http.build(), HttpResponse.BodyHandlers.ofString());
            var springHeaders = new org.springframework.http.HttpHeaders();
            response.headers().map().forEach(springHeaders::addAll);
            return new Api.Response(response.statusCode(), response.body(), springHeaders);
        } catch (Exception e) {
            throw new IllegalStateException("no answer from the SageMaker endpoint: " + e, e);
        }
    }

    /** The error code of an answer ({@code __type}), or null for a success. */
    public static String code(Api.Response response) {
        return response.status() == 200 ? null : response.json().path("__type").asString(null);
    }
}
