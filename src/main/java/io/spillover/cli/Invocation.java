package io.spillover.cli;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;

/**
 * What one run of the CLI sees of its surroundings: environment, home directory, standard streams and whether a
 * person watches a terminal. Passed in, not read from {@code System}, so a test runs the CLI in-process.
 *
 * @param terminal whether standard input and output are a terminal: then waiting shows a status line that
 *                 redraws itself, else plain lines
 */
record Invocation(Map<String, String> env, Path home, BufferedReader in, PrintWriter out, PrintWriter err,
                  boolean terminal) {

    static Invocation ofThisProcess() {
        return new Invocation(System.getenv(), Path.of(System.getProperty("user.home")),
                new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)),
                new PrintWriter(System.out, true, StandardCharsets.UTF_8),
                new PrintWriter(System.err, true, StandardCharsets.UTF_8), System.console() != null);
    }

    String env(String name) {
        String value = env.get(name);
        return value == null || value.isBlank() ? null : value.trim();
    }
}
