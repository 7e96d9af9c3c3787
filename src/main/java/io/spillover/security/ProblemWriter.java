package io.spillover.security;

import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import tools.jackson.databind.json.JsonMapper;

/** Writes security refusals as RFC 9457 problem details, like every other API error. */
final class ProblemWriter {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private ProblemWriter() {
    }

    static void write(HttpServletResponse response, HttpStatus status, String detail) throws IOException {
        var problem = new LinkedHashMap<String, Object>();
        problem.put("type", "about:blank");
        problem.put("title", status.getReasonPhrase());
        problem.put("status", status.value());
        problem.put("detail", detail);
        response.setStatus(status.value());
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        response.getWriter().write(JSON.writeValueAsString(problem));
    }

    static void tooManyFailures(HttpServletResponse response, Duration wait) throws IOException {
        response.setHeader("Retry-After", Long.toString(Math.max(1, wait.toSeconds())));
        write(response, HttpStatus.TOO_MANY_REQUESTS, "too many failed attempts from this address; try again in "
                + Math.max(1, wait.toSeconds()) + " s");
    }
}
