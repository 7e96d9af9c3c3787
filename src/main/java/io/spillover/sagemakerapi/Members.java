package io.spillover.sagemakerapi;

import io.spillover.catalog.JobKind;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The members of a small request body (Describe, Stop, List, tags), read strictly: a member the operation does not
 * have, or of the wrong type, is a {@code ValidationException} naming it, as the SageMaker API reference shapes them.
 */
final class Members {

    private final JsonNode body;

    private Members(JsonNode body) {
        this.body = body;
    }

    /** The body's members; refused when it is not a JSON object or has a member not among {@code known}. */
    static Members of(JsonMapper json, byte[] raw, String... known) {
        JsonNode body;
        try {
            body = raw.length == 0 ? json.createObjectNode() : json.readTree(raw);
        } catch (JacksonException e) {
            throw Refusals.unreadable(e);
        }
        if (body == null || !body.isObject()) {
            throw new AwsError("SerializationException", "The request body must be a JSON object.");
        }
        Set<String> allowed = Set.of(known);
        for (String name : body.propertyNames()) {
            if (!allowed.contains(name)) {
                throw AwsError.validation("1 validation error detected: '" + name + "' is not a member of this"
                        + " operation's request; its members are " + String.join(", ", known));
            }
        }
        return new Members(body);
    }

    boolean has(String name) {
        return body.has(name) && !body.get(name).isNull();
    }

    /** The job name member of the kind: required, a string. */
    String name(JobKind kind) {
        return required(kind == JobKind.TRAINING ? "TrainingJobName" : "ProcessingJobName");
    }

    String required(String name) {
        String value = string(name);
        if (value == null) {
            throw AwsError.validation("1 validation error detected: Value null at '" + name + "' failed to satisfy"
                    + " constraint: Member must not be null");
        }
        return value;
    }

    String string(String name) {
        if (!has(name)) {
            return null;
        }
        JsonNode value = body.get(name);
        if (!value.isString()) {
            throw AwsError.validation("1 validation error detected: Value at '" + name + "' failed to satisfy"
                    + " constraint: Member must be a string");
        }
        if (value.asString().indexOf('\0') >= 0) {
            throw AwsError.validation("1 validation error detected: Value at '" + name + "' failed to satisfy"
                    + " constraint: Member must not contain the NUL character (U+0000)");
        }
        return value.asString();
    }

    int integer(String name, int absent, int min, int max) {
        if (!has(name)) {
            return absent;
        }
        JsonNode value = body.get(name);
        if (!value.isIntegralNumber() || !value.canConvertToInt() || value.asInt() < min || value.asInt() > max) {
            throw AwsError.validation("1 validation error detected: Value '" + value + "' at '" + name + "' failed"
                    + " to satisfy constraint: Member must be a whole number from " + min
                    + (max == Integer.MAX_VALUE ? " up" : " to " + max));
        }
        return value.asInt();
    }

    /** A timestamp: epoch seconds as the JSON protocol sends it (a number, fractions allowed). */
    Instant timestamp(String name) {
        if (!has(name)) {
            return null;
        }
        JsonNode value = body.get(name);
        if (!value.isNumber() || value.asDouble() < 0 || value.asDouble() > 32_503_680_000d) {
            throw AwsError.validation("1 validation error detected: Value '" + value + "' at '" + name + "' failed"
                    + " to satisfy constraint: Member must be a timestamp in epoch seconds");
        }
        return Instant.ofEpochMilli(Math.round(value.asDouble() * 1000));
    }

    /** A TagList: {@code [{"Key": ..., "Value": ...}]}, 1 to 50 of them, each key once. */
    Map<String, String> tags(String name) {
        JsonNode list = body.get(name);
        if (list == null || !list.isArray() || list.isEmpty() || list.size() > 50) {
            throw AwsError.validation("1 validation error detected: Value at '" + name + "' failed to satisfy"
                    + " constraint: Member must be a list of 1 to 50 tags, each {\"Key\": ..., \"Value\": ...}");
        }
        var tags = new LinkedHashMap<String, String>();
        for (int i = 0; i < list.size(); i++) {
            JsonNode tag = list.get(i);
            String at = name + "[" + i + "]";
            if (!tag.isObject() || !tag.path("Key").isString() || (tag.has("Value") && !tag.get("Value").isString())
                    || tag.propertyNames().stream().anyMatch(p -> !List.of("Key", "Value").contains(p))) {
                throw AwsError.validation("1 validation error detected: Value at '" + at + "' failed to satisfy"
                        + " constraint: Member must be {\"Key\": string, \"Value\": string}");
            }
            if (tags.put(tag.get("Key").asString(), tag.path("Value").asString("")) != null) {
                throw AwsError.validation("1 validation error detected: '" + at + ".Key' repeats the key "
                        + tag.get("Key").asString());
            }
        }
        return tags;
    }
}
