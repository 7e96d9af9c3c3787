package io.spillover.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.stream.Collectors;
import tools.jackson.core.JacksonException;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * A job body from a file: {@code .json} as JSON, anything else ({@code .yaml}, {@code .yml}, {@code -} for standard
 * input) as YAML. Either way it becomes the JSON object the REST API takes; the service checks its fields.
 */
final class JobFile {

    private static final YAMLMapper YAML = YAMLMapper.builder().build();

    private JobFile() {
    }

    static ObjectNode read(String file, Invocation invocation) {
        String text;
        String name = "-".equals(file) ? "standard input" : file;
        try {
            text = "-".equals(file) ? invocation.in().lines().collect(Collectors.joining("\n"))
                    : Files.readString(Path.of(file));
        } catch (NoSuchFileException e) {
            throw new UsageException(name + ": no such file");
        } catch (IOException | java.io.UncheckedIOException e) {
            throw new UsageException(name + ": cannot be read (" + e.getMessage() + ")");
        }
        ObjectMapper mapper = file.toLowerCase(java.util.Locale.ROOT).endsWith(".json") ? SpilloverApi.JSON : YAML;
        String format = mapper == YAML ? "YAML" : "JSON";
        if (text.isBlank()) {
            throw new UsageException(name + ": is empty; expected a job as a " + format + " object");
        }
        JsonNode body;
        try {
            body = mapper.readTree(text);
        } catch (JacksonException e) {
            TokenStreamLocation at = e.getLocation();
            String where = at == null || at.getLineNr() < 1 ? "" : " at line " + at.getLineNr() + ", column " + at.getColumnNr();
            String why = e.getOriginalMessage() == null ? e.getClass().getSimpleName() : e.getOriginalMessage();
            throw new UsageException(name + ": not valid " + format + where + ": " + said(why));
        }
        if (!(body instanceof ObjectNode job)) {
            throw new UsageException(name + ": expected a job as a " + format + " object (name, kind, "
                    + "instancePreferences, ...), found " + describe(body));
        }
        return job;
    }

    private static String describe(JsonNode node) {
        if (node == null || node.isMissingNode() || node.isNull()) {
            return "nothing";
        }
        if (node.isArray()) {
            return "a list";
        }
        return "a single value";
    }

    /** The parser's own words without the excerpt it quotes: SnakeYAML indents the excerpt and its positions. */
    private static String said(String message) {
        return message.lines().filter(l -> !l.isBlank() && !Character.isWhitespace(l.charAt(0)))
                .collect(Collectors.joining("; "));
    }
}
