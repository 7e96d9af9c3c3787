package io.spillover.sagemakerapi;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * AWS Signature Version 4 as a server checks it: the {@code Authorization} header's parts, then the canonical request
 * rebuilt from exactly the headers the client named in {@code SignedHeaders} (no others, whatever else it sent) and
 * the body's own SHA-256, signed with the key derived from the secret, the date, the client's region and the service.
 * Pure: the secret, the body and the time come in as arguments.
 *
 * <p>Hand-written because the AWS SDK signs and has no verifier; its canonicalisation rules are those of the public
 * "Create a signed AWS API request" guide (non-S3 services: each path segment URI-encoded twice, query parameters
 * sorted, header values trimmed with inner runs of spaces made one).
 */
final class SigV4 {

    static final String ALGORITHM = "AWS4-HMAC-SHA256";
    static final String SERVICE = "sagemaker";
    /** How far a request's time may be from the server's, either way (AWS's own 15 minutes). */
    static final Duration SKEW = Duration.ofMinutes(15);
    private static final DateTimeFormatter AMZ_DATE = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'")
            .withZone(ZoneOffset.UTC);
    private static final Pattern AUTHORIZATION = Pattern.compile(
            "AWS4-HMAC-SHA256\\s+Credential=([^,\\s]+)\\s*,\\s*SignedHeaders=([^,\\s]+)\\s*,\\s*Signature=([0-9a-fA-F]+)\\s*");
    private static final Pattern SCOPE = Pattern.compile("([^/]+)/(\\d{8})/([a-z0-9-]+)/([a-z0-9-]+)/aws4_request");

    private SigV4() {
    }

    /** What the {@code Authorization} header says: who signed, for which date, region and service, over what. */
    record Authorization(String accessKeyId, String date, String region, String service, List<String> signedHeaders,
                         String signature) {

        String scope() {
            return date + "/" + region + "/" + service + "/aws4_request";
        }
    }

    /** Why a request's signature could not be checked or did not hold: an AWS error code and its words. */
    record Refusal(String code, String message) {
    }

    /** The request as it came: method, raw path and query (as sent, still encoded), headers by lower-case name. */
    record Request(String method, String rawPath, String rawQuery, Function<String, List<String>> headers,
                   byte[] body) {
    }

    /** The parts of the header; a refusal ({@code IncompleteSignatureException}) when it is not SigV4's shape. */
    static Result<Authorization> parse(String header) {
        if (header == null || header.isBlank()) {
            return Result.refused("MissingAuthenticationTokenException", "Missing Authentication Token");
        }
        Matcher parts = AUTHORIZATION.matcher(header.trim());
        if (!parts.matches()) {
            return Result.refused("IncompleteSignatureException", "Authorization header requires 'Credential',"
                    + " 'SignedHeaders' and 'Signature' parameters, and the algorithm " + ALGORITHM);
        }
        Matcher scope = SCOPE.matcher(parts.group(1));
        if (!scope.matches()) {
            return Result.refused("IncompleteSignatureException", "Credential should be scoped to a valid date,"
                    + " region and service: <key id>/<yyyyMMdd>/<region>/" + SERVICE + "/aws4_request");
        }
        List<String> signed = Arrays.asList(parts.group(2).split(";"));
        if (!signed.contains("host") || signed.stream().anyMatch(h -> !h.equals(h.toLowerCase(Locale.ROOT)))) {
            return Result.refused("IncompleteSignatureException", "SignedHeaders must be lower-case header names,"
                    + " 'host' among them");
        }
        return Result.of(new Authorization(scope.group(1), scope.group(2), scope.group(3), scope.group(4), signed,
                parts.group(3).toLowerCase(Locale.ROOT)));
    }

    /**
     * Checks the signature of {@code request} under {@code secret}: empty when it holds, else why not. The request's
     * time ({@code X-Amz-Date}, signed) must lie within {@link #SKEW} of {@code now} and match the scope's date.
     */
    static Optional<Refusal> verify(Authorization auth, Request request, String secret, Instant now) {
        if (!SERVICE.equals(auth.service())) {
            return Optional.of(new Refusal("InvalidSignatureException", "Credential should be scoped to correct"
                    + " service: '" + SERVICE + "'."));
        }
        String amzDate = single(request.headers().apply("x-amz-date"));
        if (amzDate == null || !auth.signedHeaders().contains("x-amz-date")) {
            return Optional.of(new Refusal("IncompleteSignatureException", "Authorization header requires the signed"
                    + " header 'X-Amz-Date'."));
        }
        Instant at;
        try {
            at = LocalDateTime.parse(amzDate, AMZ_DATE).toInstant(ZoneOffset.UTC);
        } catch (DateTimeParseException e) {
            return Optional.of(new Refusal("IncompleteSignatureException", "X-Amz-Date must be yyyyMMdd'T'HHmmss'Z',"
                    + " not " + amzDate));
        }
        if (at.isBefore(now.minus(SKEW))) {
            return Optional.of(new Refusal("InvalidSignatureException", "Signature expired: " + amzDate + " is now"
                    + " earlier than " + AMZ_DATE.format(now.minus(SKEW)) + " (" + AMZ_DATE.format(now) + " - 15 min.)"));
        }
        if (at.isAfter(now.plus(SKEW))) {
            return Optional.of(new Refusal("InvalidSignatureException", "Signature not yet current: " + amzDate
                    + " is still later than " + AMZ_DATE.format(now.plus(SKEW)) + " (" + AMZ_DATE.format(now)
                    + " + 15 min.)"));
        }
        if (!amzDate.startsWith(auth.date())) {
            return Optional.of(new Refusal("InvalidSignatureException", "Date in Credential scope does not match"
                    + " YYYYMMDD from ISO-8601 version of date from HTTP: '" + auth.date() + "' != '"
                    + amzDate.substring(0, 8) + "', from '" + amzDate + "'."));
        }
        String payloadHash = hex(sha256(request.body()));
        String declared = single(request.headers().apply("x-amz-content-sha256"));
        if (declared != null && !declared.equalsIgnoreCase(payloadHash)) {
            return Optional.of(new Refusal("InvalidSignatureException", "The provided 'x-amz-content-sha256' header"
                    + " does not match what was computed."));
        }
        var canonicalHeaders = new StringBuilder();
        for (String name : auth.signedHeaders()) {
            List<String> values = request.headers().apply(name);
            if (values == null || values.isEmpty()) {
                return Optional.of(new Refusal("InvalidSignatureException", "The request names '" + name + "' among"
                        + " its SignedHeaders but does not send it."));
            }
            canonicalHeaders.append(name).append(':')
                    .append(String.join(",", values.stream().map(SigV4::trimmed).toList())).append('\n');
        }
        String canonicalRequest = request.method() + "\n" + canonicalUri(request.rawPath()) + "\n"
                + canonicalQuery(request.rawQuery()) + "\n" + canonicalHeaders + "\n"
                + String.join(";", auth.signedHeaders()) + "\n" + payloadHash;
        String expected = signature(secret, auth, amzDate, canonicalRequest);
        if (!MessageDigest.isEqual(expected.getBytes(StandardCharsets.US_ASCII),
                auth.signature().getBytes(StandardCharsets.US_ASCII))) {
            return Optional.of(new Refusal("InvalidSignatureException", "The request signature we calculated does not"
                    + " match the signature you provided. Check your AWS Secret Access Key and signing method. Consult"
                    + " the service documentation for details."));
        }
        return Optional.empty();
    }

    /** The signature of a canonical request: what a client computes and the server computes again. */
    static String signature(String secret, Authorization auth, String amzDate, String canonicalRequest) {
        String stringToSign = ALGORITHM + "\n" + amzDate + "\n" + auth.scope() + "\n"
                + hex(sha256(canonicalRequest.getBytes(StandardCharsets.UTF_8)));
        byte[] key = hmac(("AWS4" + secret).getBytes(StandardCharsets.UTF_8), auth.date());
        key = hmac(key, auth.region());
        key = hmac(key, auth.service());
        key = hmac(key, "aws4_request");
        return hex(hmac(key, stringToSign));
    }

    /** Each segment of the path as sent (encoded once by the client) encoded once more, as non-S3 services sign it. */
    static String canonicalUri(String rawPath) {
        if (rawPath == null || rawPath.isEmpty()) {
            return "/";
        }
        var uri = new StringBuilder();
        String[] segments = rawPath.split("/", -1);
        for (int i = 0; i < segments.length; i++) {
            if (i > 0) {
                uri.append('/');
            }
            uri.append(encode(segments[i]));
        }
        return uri.toString();
    }

    /** Parameters sorted by name, then value; each name and value URI-encoded once, as SigV4 has them. */
    static String canonicalQuery(String rawQuery) {
        if (rawQuery == null || rawQuery.isEmpty()) {
            return "";
        }
        var pairs = new ArrayList<Map.Entry<String, String>>();
        for (String part : rawQuery.split("&")) {
            if (part.isEmpty()) {
                continue;
            }
            int eq = part.indexOf('=');
            String name = decode(eq < 0 ? part : part.substring(0, eq));
            String value = eq < 0 ? "" : decode(part.substring(eq + 1));
            pairs.add(Map.entry(encode(name), encode(value)));
        }
        pairs.sort(Map.Entry.<String, String>comparingByKey().thenComparing(Map.Entry.comparingByValue()));
        return String.join("&", pairs.stream().map(p -> p.getKey() + "=" + p.getValue()).toList());
    }

    /** RFC 3986 unreserved characters stay; every other byte is %XX, upper-case. */
    static String encode(String value) {
        var out = new StringBuilder();
        for (byte b : value.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_'
                    || c == '.' || c == '~') {
                out.append((char) c);
            } else {
                out.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
            }
        }
        return out.toString();
    }

    private static String decode(String value) {
        try {
            return URLDecoder.decode(value.replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return value;
        }
    }

    private static String trimmed(String value) {
        return value.trim().replaceAll(" +", " ");
    }

    private static String single(List<String> values) {
        return values == null || values.isEmpty() ? null : values.get(0);
    }

    static byte[] sha256(byte[] data) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(data);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    private static byte[] hmac(byte[] key, String data) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(data.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every JVM has HmacSHA256", e);
        }
    }

    static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }

    /** A value, or the refusal that stands instead of it. */
    record Result<T>(T value, Refusal refusal) {

        static <T> Result<T> of(T value) {
            return new Result<>(value, null);
        }

        static <T> Result<T> refused(String code, String message) {
            return new Result<>(null, new Refusal(code, message));
        }
    }
}
