package io.spillover.system;

import io.spillover.shared.Violation;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.Path;
import jakarta.validation.Validator;
import java.util.Comparator;
import java.util.List;
import org.springframework.stereotype.Component;

/** Bean Validation as a list of {@link Violation}s, so services can add their own rules and report all at once. */
@Component
public class Validation {

    private final Validator validator;

    Validation(Validator validator) {
        this.validator = validator;
    }

    public List<Violation> check(Object body) {
        if (body == null) {
            return List.of(new Violation("body", "must not be empty"));
        }
        return validator.validate(body).stream()
                .map(Validation::violation)
                .sorted(Comparator.comparing(Violation::field))
                .toList();
    }

    private static Violation violation(ConstraintViolation<?> violation) {
        return new Violation(field(violation.getPropertyPath()), violation.getMessage());
    }

    /** The path as a user writes it: {@code container.environment[1BAD]}, {@code container.command[0]}. */
    static String field(Path path) {
        var field = new StringBuilder();
        for (Path.Node node : path) {
            if (node.getIndex() != null) {
                field.append('[').append(node.getIndex()).append(']');
            } else if (node.getKey() != null) {
                field.append('[').append(node.getKey()).append(']');
            }
            String name = node.getName();
            if (name != null && !name.startsWith("<")) {
                field.append(field.isEmpty() ? "" : ".").append(name);
            }
        }
        return field.toString();
    }
}
