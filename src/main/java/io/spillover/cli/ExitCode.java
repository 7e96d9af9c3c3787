package io.spillover.cli;

/** What the CLI's exit status tells a pipeline; {@code --help} and docs/cli.md list the same. */
enum ExitCode {
    OK(0, "done: the job completed, or the command succeeded"),
    FAILED(1, "the job failed"),
    USAGE(2, "usage error: a bad option or argument, an unreadable job file, no URL or token"),
    STOPPED(3, "the job was stopped (on request, at its maximum runtime, by the provider)"),
    PENDING_TIME_EXPIRED(4, "the job's maximum pending time passed before capacity was found"),
    API_ERROR(5, "API error: the service refused (its problem detail is printed) or is down"),
    WAIT_TIMEOUT(6, "--timeout passed before the job ended (the job goes on)"),
    INTERNAL(70, "an error in the CLI itself");

    final int code;
    final String meaning;

    ExitCode(int code, String meaning) {
        this.code = code;
        this.meaning = meaning;
    }

    /** How a job that has ended ends the command that waited for it. */
    static ExitCode ofEnded(String status, String statusReason) {
        return switch (status) {
            case "COMPLETED" -> OK;
            case "FAILED" -> FAILED;
            case "STOPPED" -> "MAX_PENDING_TIME_EXCEEDED".equals(statusReason) ? PENDING_TIME_EXPIRED : STOPPED;
            default -> throw new IllegalArgumentException("not an ended status: " + status);
        };
    }

    static boolean ended(String status) {
        return "COMPLETED".equals(status) || "FAILED".equals(status) || "STOPPED".equals(status);
    }
}
