package io.spillover.cli;

/** The command cannot run as asked: the message says what is wrong and how to put it right. */
final class UsageException extends RuntimeException {

    UsageException(String message) {
        super(message);
    }
}
