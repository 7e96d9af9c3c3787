package io.spillover.jobs;

import io.spillover.shared.InvalidRequestException;

/**
 * A submission whose name the team's jobs already have: a 400 naming the field in the REST API, and what SageMaker's
 * API calls {@code ResourceInUse}.
 */
public class JobNameTakenException extends InvalidRequestException {

    public JobNameTakenException(String field, String message) {
        super(field, message);
    }
}
