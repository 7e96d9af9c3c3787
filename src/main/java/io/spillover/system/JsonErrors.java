package io.spillover.system;

import io.spillover.shared.Violation;
import java.util.List;
import java.util.stream.Collectors;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.exc.InvalidFormatException;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.exc.UnrecognizedPropertyException;

/** A body Jackson could not read, told as a violation naming the field, for every API that reads JSON. */
public final class JsonErrors {

    private JsonErrors() {
    }

    /** Names the field and what was wrong with it, from Jackson's own account of where it failed. */
    public static Violation violation(JacksonException jackson) {
        String field = path(jackson);
        if (jackson instanceof UnrecognizedPropertyException unknown) {
            return new Violation(field, "unknown field " + unknown.getPropertyName());
        }
        if (jackson instanceof InvalidFormatException format && format.getValue() instanceof String text
                && text.indexOf('\0') >= 0) {
            return new Violation(field, JsonInput.NUL);
        }
        if (jackson instanceof InvalidFormatException format && format.getTargetType() != null) {
            return new Violation(field, "must be " + describeType(format.getTargetType()));
        }
        if (jackson instanceof MismatchedInputException mismatch && mismatch.getTargetType() != null) {
            return new Violation(field, "must be " + describeType(mismatch.getTargetType()));
        }
        return new Violation(field.isEmpty() ? "body" : field, "is not valid JSON");
    }

    private static String path(JacksonException e) {
        var path = new StringBuilder();
        for (JacksonException.Reference ref : e.getPath()) {
            if (ref.getPropertyName() != null) {
                path.append(path.isEmpty() ? "" : ".").append(ref.getPropertyName());
            } else if (ref.getIndex() >= 0) {
                path.append('[').append(ref.getIndex()).append(']');
            }
        }
        return path.isEmpty() ? "body" : path.toString();
    }

    public static String describeType(Class<?> type) {
        if (type.isEnum()) {
            return "one of " + java.util.Arrays.stream(type.getEnumConstants()).map(Object::toString)
                    .collect(Collectors.joining(", "));
        }
        if (type == Integer.class || type == int.class || type == Long.class || type == long.class) {
            return "a whole number";
        }
        if (type == Boolean.class || type == boolean.class) {
            return "true or false";
        }
        if (type == String.class) {
            return "a string";
        }
        if (List.class.isAssignableFrom(type)) {
            return "a list";
        }
        if (java.util.Map.class.isAssignableFrom(type)) {
            return "an object";
        }
        if (type == java.util.UUID.class) {
            return "a UUID";
        }
        if (type == java.time.Instant.class) {
            return "an ISO-8601 instant such as 2026-12-02T10:00:00Z";
        }
        return "an object";
    }

}
