package io.spillover.system;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Makes requests for the operations of an OpenAPI document: valid ones from each operation's schemas, boundary
 * values, and invalid ones (wrong types, nulls, huge and negative numbers, unicode, metacharacters, missing and
 * unknown fields, deep nesting, duplicate keys, truncated and oversized bodies, strange path segments). Seeded,
 * so a run can be repeated from its seed.
 */
final class RequestFuzzer {

    static final JsonMapper JSON = JsonMapper.builder().build();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    /** Strings that have broken parsers, queries, templates and logs elsewhere. */
    static final List<String> NASTY = List.of("", " ", "'", "\"", "' OR '1'='1", "'; DROP TABLE jobs; --",
            "%s%s%s%n", "${jndi:ldap://127.0.0.1/x}", "{{7*7}}", "#{7*7}", "<script>alert(1)</script>",
            "../../../../etc/passwd", "\u0000", "line\nbreak\r\n", "\u202eevil", "名前🚀", "ｍｌ．ｐ５", "\uD800",
            "NaN", "-0", "1e309", "null", "true", "[]", "{}", "a".repeat(10_000), "ml.p5.48xlarge\u0000");
    static final List<String> NASTY_SEGMENTS = List.of("..", ".", "%00", "%2F", "a%2Fb", "%25", "%E2%80%AE",
            "%F0%9F%9A%80", "x".repeat(300), "%27%20OR%201%3D1", "%7B%7B7*7%7D%7D", "null", "-1", "%20", "UPPER");
    private static final List<Object> NASTY_NUMBERS = List.of(-1, 0, -2147483648L, 2147483648L,
            9_223_372_036_854_775_807L, -9_223_372_036_854_775_808L, 1.5, -0.0, 1e308, -1e308);

    /** What kind of input a request carries. */
    enum Kind { VALID, BOUNDARY, WRONG_TYPE, NULL, HUGE_NUMBER, NASTY_STRING, MISSING_REQUIRED, UNKNOWN_FIELD,
        DEEP_NESTING, DUPLICATE_KEYS, MALFORMED, WRONG_CONTENT_TYPE, OVERSIZED, NASTY_PATH }

    /** A parameter of an operation. */
    record Parameter(String name, String in, JsonNode schema, boolean required) {
    }

    /** One operation of the document. */
    record Operation(String method, String path, List<Parameter> parameters, JsonNode body) {
        @Override
        public String toString() {
            return method + " " + path;
        }
    }

    /** A request to send: method, path with query, body text (null: none) and its content type. */
    record Request(Operation operation, Kind kind, String method, String uri, String body, String contentType) {
        String describe() {
            String shown = body == null ? "" : body.length() > 300 ? body.substring(0, 300) + "... (" + body.length()
                    + " chars)" : body;
            return kind + ": " + method + " " + (uri.length() > 300 ? uri.substring(0, 300) + "..." : uri) + " "
                    + shown;
        }
    }

    private final JsonNode document;
    private final Random random;
    private final Function<String, String> knownPathValues;
    private int counter;

    /**
     * @param knownPathValues a path parameter's name to a value that names something that exists (a team of
     *                        the test, a job of it), null when there is none
     */
    RequestFuzzer(JsonNode document, long seed, Function<String, String> knownPathValues) {
        this.document = document;
        this.random = new Random(seed);
        this.knownPathValues = knownPathValues;
    }

    List<Operation> operations() {
        var operations = new ArrayList<Operation>();
        document.get("paths").properties().forEach(path -> path.getValue().properties().forEach(op -> {
            var parameters = new ArrayList<Parameter>();
            JsonNode declared = op.getValue().get("parameters");
            if (declared != null) {
                declared.forEach(p -> {
                    JsonNode parameter = resolve(p);
                    parameters.add(new Parameter(parameter.get("name").asString(), parameter.get("in").asString(),
                            resolve(parameter.get("schema")), parameter.path("required").asBoolean(false)));
                });
            }
            JsonNode body = op.getValue().path("requestBody").path("content").path("application/json").get("schema");
            operations.add(new Operation(op.getKey().toUpperCase(), path.getKey(), parameters,
                    body == null ? null : resolve(body)));
        }));
        return operations;
    }

    /** A request for the operation: usually valid or near it, so that checks deep inside are reached too. */
    Request next(Operation operation) {
        Kind kind = pick(operation);
        String uri = uri(operation, kind == Kind.NASTY_PATH);
        if (operation.body() == null && !operation.method().equals("POST") && !operation.method().equals("PUT")) {
            return new Request(operation, kind, operation.method(), uri, null, null);
        }
        JsonNode valid = operation.body() == null ? NODES.objectNode() : value(operation.body(), 0);
        String body = switch (kind) {
            case WRONG_TYPE -> JSON.writeValueAsString(replaceSomewhere(valid, this::otherType));
            case NULL -> JSON.writeValueAsString(replaceSomewhere(valid, node -> NODES.nullNode()));
            case HUGE_NUMBER -> JSON.writeValueAsString(replaceSomewhere(valid, node -> number(pickOf(NASTY_NUMBERS))));
            case NASTY_STRING -> JSON.writeValueAsString(replaceSomewhere(valid, node -> NODES.stringNode(pickOf(NASTY))));
            case MISSING_REQUIRED -> JSON.writeValueAsString(removeSomewhere(valid));
            case UNKNOWN_FIELD -> JSON.writeValueAsString(valid instanceof ObjectNode object
                    ? object.put("unexpected" + random.nextInt(100), pickOf(NASTY)) : valid);
            case DEEP_NESTING -> deep(random.nextBoolean() ? 2_000 : 100_000);
            case DUPLICATE_KEYS -> duplicateKeys(valid);
            case MALFORMED -> malformed(JSON.writeValueAsString(valid));
            case OVERSIZED -> "{\"padding\":\"" + "x".repeat(10 * 1024 * 1024) + "\"}";
            case BOUNDARY -> JSON.writeValueAsString(boundary(operation.body() == null ? valid : operation.body(), 0));
            default -> JSON.writeValueAsString(valid);
        };
        String contentType = kind == Kind.WRONG_CONTENT_TYPE ? pickOf(List.of("text/plain", "application/xml",
                "application/x-www-form-urlencoded", "multipart/form-data; boundary=x")) : "application/json";
        return new Request(operation, kind, operation.method(), uri, body, contentType);
    }

    private Kind pick(Operation operation) {
        boolean hasBody = operation.body() != null;
        int roll = random.nextInt(100);
        if (roll < 30) {
            return Kind.VALID;
        }
        if (roll < 40) {
            return hasBody ? Kind.BOUNDARY : Kind.VALID;
        }
        if (roll < 48) {
            return Kind.NASTY_PATH;
        }
        if (!hasBody) {
            return Kind.NASTY_PATH;
        }
        List<Kind> invalid = List.of(Kind.WRONG_TYPE, Kind.NULL, Kind.HUGE_NUMBER, Kind.NASTY_STRING,
                Kind.MISSING_REQUIRED, Kind.UNKNOWN_FIELD, Kind.DEEP_NESTING, Kind.DUPLICATE_KEYS, Kind.MALFORMED,
                Kind.WRONG_CONTENT_TYPE, Kind.WRONG_TYPE, Kind.NASTY_STRING, Kind.HUGE_NUMBER);
        // 10 MB bodies are few: they prove the limit, not the parser
        return random.nextInt(200) == 0 ? Kind.OVERSIZED : pickOf(invalid);
    }

    private String uri(Operation operation, boolean nasty) {
        String path = operation.path();
        var query = new StringBuilder();
        for (Parameter parameter : operation.parameters()) {
            if (parameter.in().equals("path")) {
                String known = knownPathValues.apply(parameter.name());
                String value = nasty && random.nextInt(3) > 0 ? pickOf(NASTY_SEGMENTS)
                        : known != null && random.nextInt(4) > 0 ? known : encode(text(parameter.schema()));
                path = path.replace("{" + parameter.name() + "}", value);
            } else if (parameter.in().equals("query") && (parameter.required() || random.nextBoolean())) {
                JsonNode value = nasty ? NODES.stringNode(pickOf(NASTY)) : value(parameter.schema(), 0);
                query.append(query.isEmpty() ? '?' : '&').append(encode(parameter.name())).append('=')
                        .append(encode(value.isString() ? value.asString() : value.toString()));
            }
        }
        if (nasty && random.nextInt(4) == 0) {
            query.append(query.isEmpty() ? '?' : '&').append(encode(pickOf(NASTY))).append('=')
                    .append(encode(pickOf(NASTY)));
        }
        return path + query;
    }

    /** A value the schema accepts, as far as the document says. */
    JsonNode value(JsonNode schema, int depth) {
        schema = resolve(schema);
        JsonNode choices = schema.get("enum");
        if (choices != null && !choices.isEmpty()) {
            return choices.get(random.nextInt(choices.size()));
        }
        for (String combinator : List.of("oneOf", "anyOf", "allOf")) {
            JsonNode options = schema.get(combinator);
            if (options != null && !options.isEmpty()) {
                return value(options.get(random.nextInt(options.size())), depth);
            }
        }
        return switch (type(schema)) {
            case "object" -> object(schema, depth);
            case "array" -> {
                ArrayNode array = NODES.arrayNode();
                int max = Math.min(schema.path("maxItems").asInt(3), 3);
                int min = Math.min(schema.path("minItems").asInt(0), max);
                int n = depth > 4 ? min : min + random.nextInt(max - min + 1);
                for (int i = 0; i < n; i++) {
                    array.add(value(schema.path("items"), depth + 1));
                }
                yield array;
            }
            case "integer" -> {
                long min = schema.has("minimum") ? schema.get("minimum").asLong() : 0;
                long max = schema.has("maximum") ? schema.get("maximum").asLong() : Math.max(min, 0) + 8;
                yield NODES.numberNode(min + (long) (random.nextDouble() * Math.min(max - min + 1, 1_000)));
            }
            case "number" -> NODES.numberNode(random.nextDouble() * 10);
            case "boolean" -> NODES.booleanNode(random.nextBoolean());
            default -> NODES.stringNode(text(schema));
        };
    }

    private ObjectNode object(JsonNode schema, int depth) {
        ObjectNode object = NODES.objectNode();
        List<String> required = new ArrayList<>();
        schema.path("required").forEach(r -> required.add(r.asString()));
        schema.path("properties").properties().forEach(property -> {
            if (required.contains(property.getKey()) || (depth < 3 && random.nextInt(10) < 6)) {
                object.set(property.getKey(), value(property.getValue(), depth + 1));
            }
        });
        JsonNode additional = schema.get("additionalProperties");
        if (additional != null && additional.isObject() && depth < 4) {
            for (int i = random.nextInt(3); i > 0; i--) {
                object.set(pickOf(List.of("ml.m5.xlarge", "ml.p4d.24xlarge", "ml.g5.2xlarge", "key-" + i)),
                        value(additional, depth + 1));
            }
        }
        return object;
    }

    /** Edges: each number at its minimum or maximum (or one past), strings at their length limits. */
    private JsonNode boundary(JsonNode schema, int depth) {
        schema = resolve(schema);
        String type = type(schema);
        if (type.equals("object") && depth < 3) {
            ObjectNode object = NODES.objectNode();
            schema.path("properties").properties().forEach(p -> object.set(p.getKey(), boundary(p.getValue(), depth + 1)));
            return object;
        }
        if (type.equals("integer") || type.equals("number")) {
            long edge = random.nextBoolean() ? schema.path("minimum").asLong(0) : schema.path("maximum").asLong(Integer.MAX_VALUE);
            return NODES.numberNode(edge + (random.nextBoolean() ? 0 : random.nextBoolean() ? 1 : -1));
        }
        if (type.equals("string") && schema.get("enum") == null && schema.get("format") == null) {
            int length = random.nextBoolean() ? schema.path("maxLength").asInt(255) : schema.path("minLength").asInt(0);
            length = Math.max(0, Math.min(length + (random.nextBoolean() ? 0 : 1), 100_000));
            return NODES.stringNode("b".repeat(length));
        }
        return value(schema, depth);
    }

    private String text(JsonNode schema) {
        String format = schema.path("format").asString("");
        return switch (format) {
            case "date-time" -> Instant.now().plus(1 + random.nextInt(400), ChronoUnit.DAYS)
                    .truncatedTo(ChronoUnit.SECONDS).toString();
            case "uuid" -> java.util.UUID.randomUUID().toString();
            case "uri" -> "https://example.com/" + counter++;
            default -> "fz-" + Integer.toString(counter++, 36) + (random.nextInt(8) == 0 ? "-x" : "");
        };
    }

    private JsonNode replaceSomewhere(JsonNode root, Function<JsonNode, JsonNode> replacement) {
        List<Slot> slots = new ArrayList<>();
        collect(root, slots);
        if (slots.isEmpty()) {
            return replacement.apply(root);
        }
        Slot slot = pickOf(slots);
        slot.set(replacement.apply(slot.get()));
        return root;
    }

    private JsonNode removeSomewhere(JsonNode root) {
        List<Slot> slots = new ArrayList<>();
        collect(root, slots);
        List<Slot> fields = slots.stream().filter(s -> s.parent() instanceof ObjectNode).toList();
        if (!fields.isEmpty()) {
            Slot slot = pickOf(fields);
            ((ObjectNode) slot.parent()).remove(slot.field());
        }
        return root;
    }

    /** A place in a document: an object's field or an array's element. */
    private record Slot(JsonNode parent, String field, int index) {
        JsonNode get() {
            return parent instanceof ObjectNode object ? object.get(field) : parent.get(index);
        }

        void set(JsonNode value) {
            if (parent instanceof ObjectNode object) {
                object.set(field, value);
            } else {
                ((ArrayNode) parent).set(index, value);
            }
        }
    }

    private static void collect(JsonNode node, List<Slot> slots) {
        if (node instanceof ObjectNode object) {
            for (Iterator<Map.Entry<String, JsonNode>> it = object.properties().iterator(); it.hasNext(); ) {
                var field = it.next();
                slots.add(new Slot(object, field.getKey(), -1));
                collect(field.getValue(), slots);
            }
        } else if (node instanceof ArrayNode array) {
            for (int i = 0; i < array.size(); i++) {
                slots.add(new Slot(array, null, i));
                collect(array.get(i), slots);
            }
        }
    }

    private JsonNode otherType(JsonNode node) {
        List<JsonNode> others = new ArrayList<>(List.of(NODES.stringNode("fz"), NODES.numberNode(7),
                NODES.booleanNode(true), NODES.objectNode().put("k", 1), NODES.arrayNode().add(1).add("x")));
        others.removeIf(other -> other.getNodeType() == node.getNodeType());
        return pickOf(others);
    }

    private static JsonNode number(Object value) {
        if (value instanceof Integer i) {
            return NODES.numberNode(i);
        }
        return value instanceof Long l ? NODES.numberNode(l) : NODES.numberNode((Double) value);
    }

    private static String deep(int levels) {
        return "{\"instancePreferences\":" + "[".repeat(levels) + "]".repeat(levels) + "}";
    }

    private String duplicateKeys(JsonNode valid) {
        String text = JSON.writeValueAsString(valid);
        if (!(valid instanceof ObjectNode object) || object.isEmpty()) {
            return "{\"name\":\"a\",\"name\":\"b\"}";
        }
        String first = object.propertyNames().iterator().next();
        return "{" + JSON.writeValueAsString(first) + ":" + pickOf(List.of("null", "1", "\"dup\"", "[]")) + ","
                + text.substring(1);
    }

    private String malformed(String text) {
        return switch (random.nextInt(6)) {
            case 0 -> text.substring(0, Math.max(0, text.length() / 2));
            case 1 -> text + "}";
            case 2 -> "";
            case 3 -> "{\"a\":01}";
            case 4 -> text.replace("\"", "'");
            default -> "\u00ff\u00fe" + text;
        };
    }

    private static String type(JsonNode schema) {
        JsonNode type = schema.get("type");
        if (type == null) {
            return schema.has("properties") ? "object" : schema.has("items") ? "array" : "string";
        }
        if (type.isArray()) {
            for (JsonNode t : type) {
                if (!t.asString().equals("null")) {
                    return t.asString();
                }
            }
        }
        return type.asString();
    }

    private JsonNode resolve(JsonNode schema) {
        if (schema == null || schema.isMissingNode()) {
            return NODES.objectNode();
        }
        JsonNode ref = schema.get("$ref");
        if (ref == null) {
            return schema;
        }
        String name = ref.asString().substring(ref.asString().lastIndexOf('/') + 1);
        return resolve(document.path("components").path("schemas").path(name));
    }

    private <T> T pickOf(List<T> options) {
        return options.get(random.nextInt(options.size()));
    }

    static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
