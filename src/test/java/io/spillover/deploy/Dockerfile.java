package io.spillover.deploy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code deploy/Dockerfile} read into its stages and instructions, so that tests can check the image's
 * settings without Docker and the integration test can do what the image build does.
 */
record Dockerfile(List<Stage> stages) {

    static final Path PATH = Path.of("deploy", "Dockerfile");

    /** One instruction: its keyword in capitals and the rest of its (joined) lines. */
    record Instruction(String keyword, String arguments) {

        /** Whitespace-separated words, for the shell form of RUN and for COPY. */
        List<String> words() {
            return Arrays.asList(arguments.trim().split("\\s+"));
        }
    }

    /** A build stage: {@code FROM image [AS name]} and what follows up to the next FROM. */
    record Stage(String image, String name, List<Instruction> instructions) {

        List<Instruction> all(String keyword) {
            return instructions.stream().filter(i -> i.keyword().equals(keyword)).toList();
        }

        Instruction only(String keyword) {
            List<Instruction> found = all(keyword);
            if (found.size() != 1) {
                throw new IllegalStateException("stage " + name + " has " + found.size() + " " + keyword + " instructions");
            }
            return found.get(0);
        }

        /** The ENV variables this stage sets ({@code ENV KEY=VALUE ...} form). */
        Map<String, String> environment() {
            var environment = new LinkedHashMap<String, String>();
            for (Instruction env : all("ENV")) {
                for (String word : env.words()) {
                    int equals = word.indexOf('=');
                    if (equals < 1) {
                        throw new IllegalStateException("ENV " + env.arguments() + ": write KEY=VALUE");
                    }
                    environment.put(word.substring(0, equals), word.substring(equals + 1));
                }
            }
            return environment;
        }

        /** The exec form of ENTRYPOINT, as the argument list it runs. */
        List<String> entrypoint() {
            return JsonMapper.builder().build().readValue(only("ENTRYPOINT").arguments(), new TypeReference<List<String>>() {
            });
        }
    }

    static Dockerfile read() {
        try {
            return parse(Files.readAllLines(PATH));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + PATH, e);
        }
    }

    static Dockerfile parse(List<String> lines) {
        var stages = new ArrayList<Stage>();
        var pending = new StringBuilder();
        for (String line : lines) {
            String trimmed = line.strip();
            if (trimmed.isEmpty() || trimmed.startsWith("#")) {
                continue;
            }
            if (trimmed.endsWith("\\")) {
                pending.append(trimmed, 0, trimmed.length() - 1).append(' ');
                continue;
            }
            String instruction = pending.append(trimmed).toString();
            pending.setLength(0);
            String[] parts = instruction.split("\\s+", 2);
            var parsed = new Instruction(parts[0].toUpperCase(), parts.length > 1 ? parts[1] : "");
            if (parsed.keyword().equals("FROM")) {
                List<String> from = parsed.words();
                String name = from.size() == 3 && from.get(1).equalsIgnoreCase("AS") ? from.get(2) : null;
                stages.add(new Stage(from.get(0), name, new ArrayList<>()));
            } else if (stages.isEmpty()) {
                throw new IllegalStateException(instruction + " comes before the first FROM");
            } else {
                stages.get(stages.size() - 1).instructions().add(parsed);
            }
        }
        return new Dockerfile(List.copyOf(stages));
    }

    /** The stage the image is made of: the last. */
    Stage runtime() {
        return stages.get(stages.size() - 1);
    }

    Stage stage(String name) {
        return stages.stream().filter(s -> name.equals(s.name())).findFirst()
                .orElseThrow(() -> new IllegalStateException("no stage " + name + " in " + PATH));
    }
}
