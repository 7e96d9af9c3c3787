package io.spillover.security;

import io.spillover.audit.AuditEntry;
import io.spillover.audit.AuditLog;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Authenticates API requests by {@code Authorization: Bearer <token>}. A bad token is answered 401 at
 * once (never passed on as anonymous), audited, and counted against its source address.
 */
final class TokenAuthenticationFilter extends OncePerRequestFilter {

    private static final String BEARER = "Bearer ";

    private final TokenService tokens;
    private final FailureLimiter limiter;
    private final AuditLog audit;
    private final Clock clock;

    TokenAuthenticationFilter(TokenService tokens, FailureLimiter limiter, AuditLog audit, Clock clock) {
        this.tokens = tokens;
        this.limiter = limiter;
        this.audit = audit;
        this.clock = clock;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String header = request.getHeader(HttpHeaders.AUTHORIZATION);
        if (header == null || !header.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            chain.doFilter(request, response);
            return;
        }
        String source = request.getRemoteAddr();
        Optional<Duration> blocked = limiter.blocked(source);
        if (blocked.isPresent()) {
            ProblemWriter.tooManyFailures(response, blocked.get());
            return;
        }
        Optional<Caller> caller = tokens.authenticate(header.substring(BEARER.length()).trim());
        if (caller.isEmpty()) {
            limiter.failed(source);
            audit.record(new AuditEntry(clock.instant(), "anonymous", "TOKEN_REFUSED",
                    request.getMethod() + " " + request.getRequestURI(), "401", source));
            response.setHeader(HttpHeaders.WWW_AUTHENTICATE, "Bearer error=\"invalid_token\"");
            ProblemWriter.write(response, HttpStatus.UNAUTHORIZED, "the token is unknown, revoked or expired");
            return;
        }
        var context = SecurityContextHolder.createEmptyContext();
        context.setAuthentication(new CallerAuthentication(caller.get()));
        SecurityContextHolder.setContext(context);
        try {
            chain.doFilter(request, response);
        } finally {
            SecurityContextHolder.clearContext();
        }
    }
}
