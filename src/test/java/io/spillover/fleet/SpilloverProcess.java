package io.spillover.fleet;

import static org.awaitility.Awaitility.await;

import io.spillover.support.Api;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * One Spillover instance as production runs it: the packaged jar in a JVM of its own, its output in
 * {@code target/chaos/<name>.out} and {@code .err}. Its name is also its PostgreSQL application name, which
 * is how the test tells from {@code pg_stat_activity} which instance holds the scheduler lock.
 */
final class SpilloverProcess {

    static final Path JAR = Path.of("target", "spillover-0.1.0-SNAPSHOT.jar");

    private final String name;
    private final int port;
    private final Process process;
    private final Path out;
    private final Path err;
    private final Map<String, Api> apis = new ConcurrentHashMap<>();
    private volatile boolean killed;
    private volatile Instant killedAt;

    private SpilloverProcess(String name, int port, Process process, Path out, Path err) {
        this.name = name;
        this.port = port;
        this.process = process;
        this.out = out;
        this.err = err;
    }

    /** Starts the jar with the JVM options and application arguments given, plus a free port and the name. */
    static SpilloverProcess start(String name, Path logs, List<String> jvmOptions, List<String> arguments) {
        if (!Files.exists(JAR)) {
            throw new IllegalStateException(JAR + " is missing: the chaos test runs the packaged jar (mvn verify)");
        }
        int port = freePort();
        var command = new ArrayList<String>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.add("-jar");
        command.add(JAR.toAbsolutePath().toString());
        command.add("--server.port=" + port);
        command.add("--spring.datasource.hikari.data-source-properties.ApplicationName=" + name);
        command.addAll(arguments);
        Path out = logs.resolve(name + ".out");
        Path err = logs.resolve(name + ".err");
        try {
            Files.createDirectories(logs);
            Process process = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile())
                    .start();
            return new SpilloverProcess(name, port, process, out, err);
        } catch (IOException e) {
            throw new UncheckedIOException("could not start " + name, e);
        }
    }

    String name() {
        return name;
    }

    long pid() {
        return process.pid();
    }

    /** A client of this instance's API sending {@code token}; one per token, reused. */
    Api api(String token) {
        return apis.computeIfAbsent(token, t -> new Api(port, t));
    }

    boolean alive() {
        return !killed && process.isAlive();
    }

    Instant killedAt() {
        return killedAt;
    }

    /** Waits until the instance answers ready; fails at once, with its log, if it died on the way. */
    SpilloverProcess awaitReady(Duration atMost) {
        var probe = new Api(port);
        await(name + " ready").atMost(atMost).pollInterval(Duration.ofMillis(250)).ignoreExceptions()
                .failFast(name + " exited while starting:\n" + tail(), () -> !process.isAlive())
                .until(() -> probe.get("/actuator/health/readiness").status() == 200);
        return this;
    }

    /** SIGKILL: no shutdown hook runs, no connection is closed politely; answers when the process is gone. */
    Instant kill() {
        killed = true;
        process.destroyForcibly();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException(name + " did not die within 30 s of SIGKILL");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while killing " + name, e);
        }
        killedAt = Instant.now();
        return killedAt;
    }

    /** The lines the instance logged at ERROR level. */
    List<String> errors() {
        try {
            return !Files.exists(out) ? List.of() : Files.readAllLines(out).stream()
                    .filter(line -> line.contains(" ERROR ")).map(line -> name + ": " + line).toList();
        } catch (IOException e) {
            return List.of(name + ": could not read " + out + ": " + e.getMessage());
        }
    }

    /** The last lines of the instance's output, for failure messages. */
    String tail() {
        try {
            var lines = new ArrayList<String>();
            if (Files.exists(err)) {
                lines.addAll(Files.readAllLines(err));
            }
            if (Files.exists(out)) {
                lines.addAll(Files.readAllLines(out));
            }
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            return "(could not read " + out + ": " + e.getMessage() + ")";
        }
    }

    @Override
    public String toString() {
        return name + " (port " + port + ", pid " + process.pid() + ")";
    }

    private static int freePort() {
        try (var socket = new ServerSocket(0)) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
