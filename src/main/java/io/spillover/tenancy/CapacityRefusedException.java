package io.spillover.tenancy;

/** The database refused to book capacity: someone took it first. The booking transaction must roll back. */
public class CapacityRefusedException extends RuntimeException {

    public CapacityRefusedException(String message, Throwable cause) {
        super(message, cause);
    }
}
