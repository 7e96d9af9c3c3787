package io.spillover.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * docs/benchmarks.md, whose generated sections sit between {@code <!-- bench:ID:begin -->} and
 * {@code <!-- bench:ID:end -->}: a run replaces only the sections of what it measured, so quick and full
 * figures, and the hand-written text around them, stay. A section with no markers yet is appended. The file
 * is read when the results are written, not when the run starts, so edits made meanwhile are kept.
 */
final class BenchmarksDoc {

    private BenchmarksDoc() {
    }

    static void update(Path file, Map<String, String> sections) throws IOException {
        String text = Files.exists(file) ? Files.readString(file) : "# Benchmarks\n";
        for (Map.Entry<String, String> section : sections.entrySet()) {
            text = replace(text, section.getKey(), section.getValue());
        }
        if (file.getParent() != null) {
            Files.createDirectories(file.getParent());
        }
        Files.writeString(file, text);
    }

    static String replace(String text, String id, String body) {
        String begin = "<!-- bench:" + id + ":begin -->";
        String end = "<!-- bench:" + id + ":end -->";
        String section = begin + "\n" + body.strip() + "\n" + end;
        int from = text.indexOf(begin);
        int to = text.indexOf(end);
        if (from >= 0 && to > from) {
            return text.substring(0, from) + section + text.substring(to + end.length());
        }
        return text.stripTrailing() + "\n\n" + section + "\n";
    }
}
