package io.spillover.shared;

/** The capacity provider could not be reached after its retries: answered 503, the caller may try again later. */
public class ProviderUnavailableException extends RuntimeException {

    public ProviderUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
