package io.spillover.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Optional;

/**
 * Where and when a figure was measured, for the reader of docs/benchmarks.md to judge it.
 *
 * @param loadAtStart the 1-, 5- and 15-minute load averages when the run started: other work on the machine
 *                    (another build, a running service) slows the benchmarks, and this shows it
 */
record Machine(int cores, String memory, String cpu, String os, String javaVersion, String date, String loadAtStart) {

    static Machine describe() {
        return new Machine(Runtime.getRuntime().availableProcessors(),
                procLine("/proc/meminfo", "MemTotal:").map(Machine::gib).orElse("unknown"),
                procLine("/proc/cpuinfo", "model name").map(l -> l.substring(l.indexOf(':') + 1).strip()).orElse("unknown"),
                System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"),
                runningJavaVersion(),
                DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'").withZone(ZoneOffset.UTC).format(Instant.now()),
                load());
    }

    /** The load averages now, as /proc/loadavg gives them: "1.02 0.88 0.61". */
    static String load() {
        try {
            String[] fields = Files.readString(Path.of("/proc/loadavg")).strip().split("\\s+");
            return String.join(" ", List.of(fields).subList(0, 3));
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }

    /** "MemTotal:       24591480 kB" as GiB. */
    private static String gib(String line) {
        long kb = Long.parseLong(line.replaceAll("\\D", ""));
        return "%.1f GiB".formatted(kb / 1024.0 / 1024.0);
    }

    private static Optional<String> procLine(String file, String prefix) {
        try {
            return Files.readAllLines(Path.of(file)).stream().filter(l -> l.startsWith(prefix)).findFirst();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** What {@code java -version} prints for the JVM running the benchmarks (JMH forks the same one). */
    private static String runningJavaVersion() {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        try {
            Process process = new ProcessBuilder(java.toString(), "-version").redirectErrorStream(true).start();
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            process.waitFor();
            return String.join("; ", List.of(out.split("\\R")));
        } catch (IOException e) {
            return System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return System.getProperty("java.runtime.version");
        }
    }
}
