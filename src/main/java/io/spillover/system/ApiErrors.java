package io.spillover.system;

import io.spillover.shared.ConflictException;
import io.spillover.shared.ForbiddenException;
import io.spillover.shared.InvalidRequestException;
import io.spillover.shared.NotFoundException;
import io.spillover.shared.ProviderUnavailableException;
import io.spillover.shared.Violation;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;
import tools.jackson.core.JacksonException;

/**
 * Every error of the API as an RFC 9457 problem detail. Field errors come as {@code errors: [{field,
 * message}]}; bodies never carry stack traces or echo what was sent beyond the offending value's field.
 */
@RestControllerAdvice(annotations = org.springframework.web.bind.annotation.RestController.class)
class ApiErrors extends ResponseEntityExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(ApiErrors.class);
    static final URI INVALID = URI.create("https://spillover.io/problems/invalid-request");

    @ExceptionHandler
    ResponseEntity<Object> invalid(InvalidRequestException e) {
        return ResponseEntity.badRequest().body(invalidProblem(e.violations()));
    }

    @ExceptionHandler
    ResponseEntity<Object> notFound(NotFoundException e) {
        return problem(HttpStatus.NOT_FOUND, e.getMessage());
    }

    @ExceptionHandler
    ResponseEntity<Object> forbidden(ForbiddenException e) {
        return problem(HttpStatus.FORBIDDEN, e.getMessage());
    }

    @ExceptionHandler
    ResponseEntity<Object> conflict(ConflictException e) {
        return problem(HttpStatus.CONFLICT, e.getMessage());
    }

    @ExceptionHandler
    ResponseEntity<Object> providerUnavailable(ProviderUnavailableException e) {
        log.warn("{}: {}", e.getMessage(), e.getCause() == null ? "" : e.getCause().getMessage());
        return problem(HttpStatus.SERVICE_UNAVAILABLE, e.getMessage());
    }

    @ExceptionHandler
    ResponseEntity<Object> typeMismatch(MethodArgumentTypeMismatchException e) {
        String expected = e.getRequiredType() == null ? "another type" : describeType(e.getRequiredType());
        return ResponseEntity.badRequest().body(invalidProblem(
                List.of(new Violation(e.getName(), "must be " + expected))));
    }

    @ExceptionHandler
    ResponseEntity<Object> unexpected(RuntimeException e) {
        if (DatabaseFailures.isOutage(e)) {
            log.warn("{} ({})", DatabaseOutage.DETAIL, e.getMessage());
            return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE).header(HttpHeaders.RETRY_AFTER, "5")
                    .body(ProblemDetail.forStatusAndDetail(HttpStatus.SERVICE_UNAVAILABLE, DatabaseOutage.DETAIL));
        }
        log.error("Unexpected error", e);
        return problem(HttpStatus.INTERNAL_SERVER_ERROR, "An unexpected error occurred; it has been logged.");
    }

    @Override
    protected ResponseEntity<Object> handleHttpMessageNotReadable(HttpMessageNotReadableException e,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        if (BodySizeLimit.causedByTooLarge(e)) {
            return problem(HttpStatus.CONTENT_TOO_LARGE, e.getMostSpecificCause().getMessage());
        }
        return ResponseEntity.badRequest().body(invalidProblem(List.of(unreadable(e))));
    }

    /** Names the field and what was wrong with it, from Jackson's own account of where it failed. */
    static Violation unreadable(HttpMessageNotReadableException e) {
        Throwable cause = e.getCause();
        if (!(cause instanceof JacksonException jackson)) {
            return new Violation("body", "must be a JSON document");
        }
        return JsonErrors.violation(jackson);
    }

    private static String describeType(Class<?> type) {
        return JsonErrors.describeType(type);
    }

    static ProblemDetail invalidProblem(List<Violation> violations) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST,
                InvalidRequestException.summary(violations));
        problem.setType(INVALID);
        problem.setTitle("Invalid request");
        problem.setProperty("errors", violations.stream().map(ApiErrors::shown).toList());
        return problem;
    }

    /** What a client sees of a violation: the field and the words, in that order. */
    private static Map<String, String> shown(Violation violation) {
        Map<String, String> shown = new LinkedHashMap<>();
        shown.put("field", violation.field());
        shown.put("message", violation.message());
        return shown;
    }

    private static ResponseEntity<Object> problem(HttpStatus status, String detail) {
        return ResponseEntity.status(status).body(ProblemDetail.forStatusAndDetail(status, detail));
    }
}
