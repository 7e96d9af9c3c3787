package io.spillover.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * docs/benchmarks.md, whose generated sections sit between {@code <!-- bench:ID:begin -->} and
 * {@code <!-- bench:ID:end -->}: a run replaces only the sections of what it measured, so quick and full
 * figures, and the hand-written text around them, stay. A section with no markers yet is appended.
 */
final class BenchmarksDoc {

    private final Path file;
    private String text;

    private BenchmarksDoc(Path file, String text) {
        this.file = file;
        this.text = text;
    }

    static BenchmarksDoc read(Path file) throws IOException {
        return new BenchmarksDoc(file, Files.exists(file) ? Files.readString(file) : "# Benchmarks\n");
    }

    void replace(String id, String body) {
        String begin = "<!-- bench:" + id + ":begin -->";
        String end = "<!-- bench:" + id + ":end -->";
        String section = begin + "\n" + body.strip() + "\n" + end;
        int from = text.indexOf(begin);
        int to = text.indexOf(end);
        if (from >= 0 && to > from) {
            text = text.substring(0, from) + section + text.substring(to + end.length());
        } else {
            text = text.stripTrailing() + "\n\n" + section + "\n";
        }
    }

    void write() throws IOException {
        if (file.getParent() != null) {
            Files.createDirectories(file.getParent());
        }
        Files.writeString(file, text);
    }
}
