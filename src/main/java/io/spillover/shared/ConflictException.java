package io.spillover.shared;

/** A request that is valid but clashes with the current state (stopping a finished job): answered 409. */
public class ConflictException extends RuntimeException {

    public ConflictException(String message) {
        super(message);
    }
}
