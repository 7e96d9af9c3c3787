package io.spillover.sagemakerapi;

import io.spillover.security.Caller;
import io.spillover.security.Callers;
import io.swagger.v3.oas.annotations.Hidden;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Map;
import java.util.UUID;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import tools.jackson.databind.json.JsonMapper;

/**
 * SageMaker's AWS JSON 1.1 protocol at {@code /sagemaker}: {@code POST} with {@code X-Amz-Target:
 * SageMaker.<Operation>} and a JSON body, answered with {@code application/x-amz-json-1.1}. A client points its
 * endpoint URL at {@code http(s)://<host>:<port>/sagemaker}; the team is its access key's. Not in the REST API's
 * OpenAPI document: SageMaker's own API reference describes it.
 */
@RestController
@Hidden
class SageMakerEndpoint {

    static final String TARGET_PREFIX = "SageMaker.";

    private final JobOperations operations;
    private final Callers callers;
    private final JsonMapper json;

    SageMakerEndpoint(JobOperations operations, Callers callers, JsonMapper json) {
        this.operations = operations;
        this.callers = callers;
        this.json = json;
    }

    @PostMapping(path = {"/sagemaker", "/sagemaker/"})
    ResponseEntity<byte[]> call(@RequestHeader(value = "X-Amz-Target", required = false) String target,
                                @RequestBody(required = false) byte[] body, HttpServletRequest request) {
        if (target == null || !target.startsWith(TARGET_PREFIX)) {
            throw new AwsError("UnknownOperationException", "Send X-Amz-Target: SageMaker.<Operation>, one of "
                    + String.join(", ", JobOperations.OPERATIONS.stream().sorted().toList()));
        }
        Caller caller = callers.current().orElseThrow(() -> new AwsError("MissingAuthenticationTokenException",
                "Missing Authentication Token"));
        if (caller.memberships().size() != 1) {
            throw new AwsError("AccessDeniedException", "sign with the access key of a team's token");
        }
        String team = caller.memberships().keySet().iterator().next();
        String region = (String) request.getAttribute(SignedRequests.REGION);
        Map<String, Object> answer = operations.call(target.substring(TARGET_PREFIX.length()),
                body == null ? new byte[0] : body, team, region == null ? "us-east-1" : region);
        return ResponseEntity.ok().contentType(MediaType.parseMediaType(AwsError.CONTENT_TYPE))
                .header("x-amzn-RequestId", UUID.randomUUID().toString())
                .body(json.writeValueAsBytes(answer));
    }

    /** Every refusal of the endpoint in SageMaker's error shape, never as a problem document. */
    @RestControllerAdvice(assignableTypes = SageMakerEndpoint.class)
    @Order(Ordered.HIGHEST_PRECEDENCE)
    static class Errors {

        @ExceptionHandler
        void refused(RuntimeException e, HttpServletResponse response) throws IOException {
            Refusals.of(e).write(response);
        }
    }
}
