package io.spillover.cli;

import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * The service refused a request with an RFC 9457 problem, or could not be reached (then {@code status} is 0 and
 * {@code problem} null).
 */
final class ApiException extends RuntimeException {

    final int status;
    final JsonNode problem;

    ApiException(int status, String detail, JsonNode problem) {
        super(detail);
        this.status = status;
        this.problem = problem;
    }

    /** The problem's field errors as {@code field: message}, in its order. */
    List<String> fieldErrors() {
        var errors = new ArrayList<String>();
        if (problem != null && problem.path("errors").isArray()) {
            for (JsonNode error : problem.get("errors")) {
                errors.add(error.path("field").asString("") + ": " + error.path("message").asString(""));
            }
        }
        return errors;
    }
}
