package io.spillover.providers;

/** Why a provider would not run an attempt on an offering now; the offering is marked unavailable for a while. */
public enum Refusal {
    /** The cloud has no capacity of the type now. */
    INSUFFICIENT_CAPACITY("an insufficient-capacity error"),
    /** The account's service quota for the type is used up: an admin must raise it, or jobs must end. */
    QUOTA_EXCEEDED("the account's service quota for it was reached");

    private final String cause;

    Refusal(String cause) {
        this.cause = cause;
    }

    /** The mark's cause in words, read after "marked unavailable until ... after". */
    public String cause() {
        return cause;
    }
}
