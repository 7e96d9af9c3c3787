package io.spillover.sagemakerapi;

import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.UUID;
import tools.jackson.databind.json.JsonMapper;

/**
 * An error as SageMaker's JSON 1.1 protocol answers it: {@code {"__type": "<Code>", "message": "..."}} with HTTP 400
 * (every code here, throttling included: botocore's legacy retry rule for {@code ThrottlingException} needs the
 * 400), {@code 503} only for {@code ServiceUnavailable}.
 */
final class AwsError extends RuntimeException {

    static final String CONTENT_TYPE = "application/x-amz-json-1.1";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** A job, or another thing named, that the caller's team does not have; the SDKs' waiters take it as final. */
    static final String NOT_FOUND = "Requested resource not found.";

    private final String code;
    private final int status;

    AwsError(String code, String message) {
        this(code, message, 400);
    }

    AwsError(String code, String message, int status) {
        super(message);
        this.code = code;
        this.status = status;
    }

    static AwsError validation(String message) {
        return new AwsError("ValidationException", message);
    }

    static AwsError notFound() {
        return validation(NOT_FOUND);
    }

    String code() {
        return code;
    }

    int status() {
        return status;
    }

    /** Writes the error as the answer, with a request id as AWS gives every answer one. */
    void write(HttpServletResponse response) throws IOException {
        var body = new LinkedHashMap<String, Object>();
        body.put("__type", code);
        body.put("message", getMessage());
        response.setStatus(status);
        response.setContentType(CONTENT_TYPE);
        response.setHeader("x-amzn-RequestId", UUID.randomUUID().toString());
        response.setHeader("x-amzn-ErrorType", code);
        response.getOutputStream().write(JSON.writeValueAsBytes(body));
    }
}
