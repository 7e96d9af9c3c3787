package io.spillover.sagemakerapi;

import io.spillover.jobs.JobNameTakenException;
import io.spillover.shared.ConflictException;
import io.spillover.shared.ForbiddenException;
import io.spillover.shared.InvalidRequestException;
import io.spillover.shared.NotFoundException;
import io.spillover.shared.ProviderUnavailableException;
import io.spillover.shared.Violation;
import io.spillover.system.DatabaseFailures;
import io.spillover.system.JsonErrors;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;

/**
 * Spillover's refusals in SageMaker's error codes: a broken rule is {@code ValidationException} naming every field,
 * a taken name {@code ResourceInUse}, a request only a quota refuses {@code ResourceLimitExceeded}, anything not the
 * team's {@code ValidationException} "Requested resource not found.", a role the caller lacks {@code
 * AccessDeniedException}, the database or the provider out of reach {@code ServiceUnavailable} (503).
 */
final class Refusals {

    private static final Logger log = LoggerFactory.getLogger(Refusals.class);

    private Refusals() {
    }

    static AwsError of(RuntimeException e) {
        if (e instanceof AwsError aws) {
            return aws;
        }
        if (e instanceof JobNameTakenException taken) {
            return new AwsError("ResourceInUse", "A job with this name already exists in the team: "
                    + taken.violations().get(0).message() + ". Job names must be unique within a team.");
        }
        if (e instanceof InvalidRequestException invalid) {
            List<Violation> violations = invalid.violations();
            String message = violations.size() + " validation error" + (violations.size() == 1 ? "" : "s")
                    + " detected: " + InvalidRequestException.summary(violations);
            return violations.stream().allMatch(Violation::limit)
                    ? new AwsError("ResourceLimitExceeded", message) : AwsError.validation(message);
        }
        if (e instanceof NotFoundException) {
            return AwsError.notFound();
        }
        if (e instanceof ForbiddenException forbidden) {
            return new AwsError("AccessDeniedException", forbidden.getMessage());
        }
        if (e instanceof ConflictException conflict) {
            return AwsError.validation(conflict.getMessage());
        }
        if (e instanceof ProviderUnavailableException || DatabaseFailures.isOutage(e)) {
            log.warn("SageMaker endpoint: {}", e.getMessage());
            return new AwsError("ServiceUnavailable", "Spillover cannot answer now; nothing was changed, try again"
                    + " shortly", 503);
        }
        log.error("Unexpected error on the SageMaker endpoint", e);
        return new AwsError("InternalFailure", "An unexpected error occurred; it has been logged.", 500);
    }

    /** A body Jackson could not read: the member and what it must be. */
    static AwsError unreadable(JacksonException e) {
        Violation violation = JsonErrors.violation(e);
        if (violation.message().equals("is not valid JSON")) {
            return new AwsError("SerializationException", "The request body is not valid JSON"
                    + (violation.field().equals("body") ? "" : " at " + violation.field()));
        }
        return AwsError.validation("1 validation error detected: " + violation.field() + ": " + violation.message());
    }
}
