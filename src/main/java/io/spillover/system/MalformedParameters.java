package io.spillover.system;

import io.spillover.shared.Violation;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import org.apache.tomcat.util.http.InvalidParameterException;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;
import tools.jackson.databind.json.JsonMapper;

/**
 * Tomcat parses a request's parameters (query string and form body) the first time anything asks for one, and
 * throws when they are malformed: a chunk with no name ({@code ?=x}), broken percent-encoding, too many
 * parameters, a form body over its limit. Whoever asked first (a controller's argument, the CSRF check) then
 * fails with a 500. This filter asks first, before anything else runs, and answers such a request with a 400
 * (or 413) problem document naming what is wrong; the API fuzzer found the 500.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 5)
class MalformedParameters extends OncePerRequestFilter {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    static final String RULE = "must be name=value pairs joined by '&', each with a non-empty name and valid "
            + "percent-encoding";

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        try {
            request.getParameterMap();
        } catch (InvalidParameterException e) {
            refuse(response, e.getErrorCode());
            return;
        }
        chain.doFilter(request, response);
    }

    private static void refuse(HttpServletResponse response, int errorCode) throws IOException {
        var problem = new LinkedHashMap<String, Object>();
        if (errorCode == HttpStatus.CONTENT_TOO_LARGE.value()) {
            problem.put("title", "Content Too Large");
            problem.put("status", errorCode);
            problem.put("detail", "the form body or query string is larger than the server accepts");
        } else {
            List<Violation> errors = List.of(new Violation("parameters", RULE));
            problem.put("type", ApiErrors.INVALID.toString());
            problem.put("title", "Invalid request");
            problem.put("status", HttpStatus.BAD_REQUEST.value());
            problem.put("detail", "parameters " + RULE);
            problem.put("errors", errors);
            errorCode = HttpStatus.BAD_REQUEST.value();
        }
        response.setStatus(errorCode);
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        response.getWriter().write(JSON.writeValueAsString(problem));
    }
}
