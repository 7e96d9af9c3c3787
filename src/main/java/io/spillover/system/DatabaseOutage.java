package io.spillover.system;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * While PostgreSQL cannot be reached every request answers 503 with a problem document (and a console page
 * says so), never a 500 or a stack trace: the token look-up, the console's session and every write need the
 * database, and each write is one transaction, so a request refused here changed nothing. It runs before the
 * security filters, whose token look-up is the first thing to fail.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 10)
class DatabaseOutage extends OncePerRequestFilter {

    static final String DETAIL = "the database cannot be reached; nothing was changed, try again shortly";
    private static final Logger log = LoggerFactory.getLogger(DatabaseOutage.class);

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        try {
            chain.doFilter(request, response);
        } catch (ServletException | RuntimeException e) {
            if (!DatabaseFailures.isOutage(e) || response.isCommitted()) {
                throw e;
            }
            log.warn("{} {}: {} ({})", request.getMethod(), request.getRequestURI(), DETAIL, rootMessage(e));
            response.resetBuffer();
            unavailable(request, response);
        }
    }

    private static void unavailable(HttpServletRequest request, HttpServletResponse response) throws IOException {
        response.setStatus(HttpStatus.SERVICE_UNAVAILABLE.value());
        response.setHeader(HttpHeaders.RETRY_AFTER, "5");
        String accept = request.getHeader(HttpHeaders.ACCEPT);
        if (!request.getRequestURI().startsWith("/api/") && accept != null && accept.contains("text/html")) {
            response.setContentType(MediaType.TEXT_HTML_VALUE + ";charset=UTF-8");
            response.getWriter().write("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
                    + "<title>Spillover: unavailable</title></head><body><h1>Spillover is unavailable</h1><p>The "
                    + "database cannot be reached. Nothing was changed; the page works again once it is back.</p>"
                    + "</body></html>");
            return;
        }
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        response.getWriter().write("{\"title\":\"Service Unavailable\",\"status\":503,\"detail\":\"" + DETAIL
                + "\"}");
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getClass().getSimpleName() + ": " + root.getMessage();
    }
}
