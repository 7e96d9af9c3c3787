package io.spillover.shared;

/**
 * A broken rule, named by the request field it concerns ({@code instancePreferences[1].instanceCount}).
 *
 * @param limit whether the rule is a limit (a team's quota or caps, an account's service quota) rather than a wrong
 *              value: SageMaker's API answers those {@code ResourceLimitExceeded}; a problem document shows only
 *              the field and the message
 */
public record Violation(String field, String message, boolean limit) {

    public Violation(String field, String message) {
        this(field, message, false);
    }

    /** The same rule, named by another field (an item of a batch, say). */
    public Violation at(String otherField) {
        return new Violation(otherField, message, limit);
    }

    /** The same rule, its words prefixed. */
    public Violation saying(String prefix) {
        return new Violation(field, prefix + message, limit);
    }

    /** A request that breaks a limit, not a rule of its shape. */
    public static Violation ofLimit(String field, String message) {
        return new Violation(field, message, true);
    }
}
