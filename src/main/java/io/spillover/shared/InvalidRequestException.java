package io.spillover.shared;

import java.util.List;

/** A request that breaks rules: answered 400 with every violation listed. Nothing was stored. */
public class InvalidRequestException extends RuntimeException {

    private final List<Violation> violations;

    public InvalidRequestException(List<Violation> violations) {
        super(violations.size() + " invalid field(s)");
        this.violations = List.copyOf(violations);
    }

    public InvalidRequestException(String field, String message) {
        this(List.of(new Violation(field, message)));
    }

    public List<Violation> violations() {
        return violations;
    }

    /** Every violation on one line, {@code field: message; field: message}, for a page or a problem's detail. */
    public String summary() {
        return summary(violations);
    }

    public static String summary(List<Violation> violations) {
        return String.join("; ", violations.stream().map(v -> v.field() + ": " + v.message()).toList());
    }
}
