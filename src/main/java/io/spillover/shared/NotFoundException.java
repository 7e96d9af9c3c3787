package io.spillover.shared;

/** Answered 404; the message names what was not found (and never whether it exists elsewhere). */
public class NotFoundException extends RuntimeException {

    public NotFoundException(String message) {
        super(message);
    }
}
