package io.spillover.shared;

/** The caller is known but may not do this: answered 403. */
public class ForbiddenException extends RuntimeException {

    public ForbiddenException(String message) {
        super(message);
    }
}
