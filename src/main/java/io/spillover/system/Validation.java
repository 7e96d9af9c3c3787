package io.spillover.system;

import io.spillover.placement.Violation;
import jakarta.validation.ConstraintViolation;
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
        String path = violation.getPropertyPath().toString()
                .replaceAll("<map value>", "").replaceAll("<list element>", "").replaceAll("\\.$", "");
        return new Violation(path, violation.getMessage());
    }
}
