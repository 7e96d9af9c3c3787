package io.spillover.sagemakerapi;

import io.spillover.audit.AuditEntry;
import io.spillover.audit.AuditLog;
import io.spillover.security.FailureLimiter;
import io.spillover.security.TokenService;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.web.authentication.preauth.PreAuthenticatedAuthenticationToken;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Authenticates calls to the SageMaker endpoint by their SigV4 signature: the access key names a team's token, and
 * the signature must hold over exactly the headers the client signed and the body's own hash, within 15 minutes of
 * the server's time. A refused call is answered as AWS answers it ({@code UnrecognizedClientException},
 * {@code InvalidSignatureException}, {@code IncompleteSignatureException}, {@code MissingAuthenticationTokenException}),
 * audited ({@code SIGNATURE_REFUSED}) and counted against its address, as bad tokens are; an address over the limit
 * gets {@code ThrottlingException} until its window ends.
 */
final class SignedRequests extends OncePerRequestFilter {

    /** The region the client signed for: its ARNs name it. */
    static final String REGION = SignedRequests.class.getName() + ".region";

    private final TokenService tokens;
    private final FailureLimiter limiter;
    private final AuditLog audit;
    private final Clock clock;
    private final long maxBodySize;

    SignedRequests(TokenService tokens, FailureLimiter limiter, AuditLog audit, Clock clock, long maxBodySize) {
        this.tokens = tokens;
        this.limiter = limiter;
        this.audit = audit;
        this.clock = clock;
        this.maxBodySize = maxBodySize;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String source = request.getRemoteAddr();
        Optional<Duration> blocked = limiter.blocked(source);
        if (blocked.isPresent()) {
            new AwsError("ThrottlingException", "Rate exceeded: too many failed signatures from this address; try"
                    + " again in " + Math.max(1, blocked.get().toSeconds()) + " s").write(response);
            return;
        }
        if (request.getContentLengthLong() > maxBodySize) {
            tooLarge().write(response);
            return;
        }
        byte[] body = readBody(request.getInputStream());
        if (body == null) {
            tooLarge().write(response);
            return;
        }
        var parsed = SigV4.parse(request.getHeader("Authorization"));
        if (parsed.refusal() != null) {
            refuse(request, response, null, parsed.refusal());
            return;
        }
        SigV4.Authorization auth = parsed.value();
        if (request.getHeader("X-Amz-Security-Token") != null) {
            refuse(request, response, auth, new SigV4.Refusal("UnrecognizedClientException", "The security token"
                    + " included in the request is invalid: Spillover issues no session tokens; sign with a token's"
                    + " access key"));
            return;
        }
        Optional<TokenService.SigningKey> key = tokens.signingKey(auth.accessKeyId());
        if (key.isEmpty()) {
            refuse(request, response, auth, new SigV4.Refusal("UnrecognizedClientException", "The security token"
                    + " included in the request is invalid."));
            return;
        }
        var signed = new SigV4.Request(request.getMethod(), request.getRequestURI(), request.getQueryString(),
                name -> headers(request, name), body);
        Optional<SigV4.Refusal> refusal = SigV4.verify(auth, signed, key.get().secretAccessKey(), clock.instant());
        if (refusal.isPresent()) {
            refuse(request, response, auth, refusal.get());
            return;
        }
        request.setAttribute(REGION, auth.region());
        var context = SecurityContextHolder.createEmptyContext();
        context.setAuthentication(new PreAuthenticatedAuthenticationToken(key.get().caller(), null, List.of()));
        SecurityContextHolder.setContext(context);
        try {
            chain.doFilter(new CachedBody(request, body), response);
        } finally {
            SecurityContextHolder.clearContext();
        }
    }

    private void refuse(HttpServletRequest request, HttpServletResponse response, SigV4.Authorization auth,
                        SigV4.Refusal refusal) throws IOException {
        String source = request.getRemoteAddr();
        limiter.failed(source);
        String target = request.getHeader("X-Amz-Target");
        audit.record(new AuditEntry(clock.instant(), auth == null ? "anonymous" : "access-key:" + auth.accessKeyId(),
                "SIGNATURE_REFUSED", request.getMethod() + " " + request.getRequestURI()
                + (target == null ? "" : " " + abbreviate(target)), refusal.code(), source));
        new AwsError(refusal.code(), refusal.message()).write(response);
    }

    private AwsError tooLarge() {
        return new AwsError("RequestEntityTooLargeException", "request bodies are limited to " + maxBodySize
                + " bytes", 413);
    }

    private static List<String> headers(HttpServletRequest request, String name) {
        var values = request.getHeaders(name);
        return values == null ? List.of() : Collections.list(values);
    }

    /** The body, or null when it is longer than allowed (a client that streams it without a length). */
    private byte[] readBody(InputStream in) throws IOException {
        byte[] body = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, maxBodySize + 1));
        return body.length > maxBodySize ? null : body;
    }

    private static String abbreviate(String value) {
        String printable = value.replaceAll("\\p{Cntrl}", " ");
        return printable.length() > 100 ? printable.substring(0, 100) + "..." : printable;
    }

    /** The request with its body read once, for the signature, and read again by the endpoint. */
    static final class CachedBody extends HttpServletRequestWrapper {

        private final byte[] body;

        CachedBody(HttpServletRequest request, byte[] body) {
            super(request);
            this.body = body;
        }

        @Override
        public ServletInputStream getInputStream() {
            var in = new ByteArrayInputStream(body);
            return new ServletInputStream() {
                @Override
                public boolean isFinished() {
                    return in.available() == 0;
                }

                @Override
                public boolean isReady() {
                    return true;
                }

                /** The whole body is in memory: it is available at once, and then all read. */
                @Override
                public void setReadListener(ReadListener listener) {
                    try {
                        if (!isFinished()) {
                            listener.onDataAvailable();
                        }
                        listener.onAllDataRead();
                    } catch (IOException | RuntimeException e) {
                        listener.onError(e);
                    }
                }

                @Override
                public int read() {
                    return in.read();
                }

                @Override
                public int read(byte[] buffer, int offset, int length) {
                    return in.read(buffer, offset, length);
                }
            };
        }

        @Override
        public BufferedReader getReader() {
            return new BufferedReader(new InputStreamReader(getInputStream(), StandardCharsets.UTF_8));
        }

        @Override
        public int getContentLength() {
            return body.length;
        }

        @Override
        public long getContentLengthLong() {
            return body.length;
        }
    }
}
