package io.spillover.fleet;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The Spillover instances of a run, all started alike against one database: those serving (started and
 * ready, not killed) take the clients' requests in turn. Instances are named {@code spillover-1},
 * {@code spillover-2}, ... in the order they were started.
 */
final class Replicas implements AutoCloseable {

    static final Duration STARTUP = Duration.ofSeconds(120);

    private final Path logs;
    private final List<String> jvmOptions;
    private final List<String> arguments;
    private final AtomicInteger started = new AtomicInteger();
    private final AtomicInteger turn = new AtomicInteger();
    private final List<SpilloverProcess> all = new CopyOnWriteArrayList<>();
    private final List<SpilloverProcess> serving = new CopyOnWriteArrayList<>();

    Replicas(Path logs, List<String> jvmOptions, List<String> arguments) {
        this.logs = logs;
        this.jvmOptions = List.copyOf(jvmOptions);
        this.arguments = List.copyOf(arguments);
    }

    /** Starts a new instance; it serves once it answers ready. */
    CompletableFuture<SpilloverProcess> start() {
        SpilloverProcess instance = SpilloverProcess.start("spillover-" + started.incrementAndGet(), logs, jvmOptions,
                arguments);
        all.add(instance);
        return CompletableFuture.supplyAsync(() -> {
            instance.awaitReady(STARTUP);
            serving.add(instance);
            return instance;
        });
    }

    /** The next serving instance in turn; another than {@code avoid} (which may be null) when another serves. */
    SpilloverProcess next(SpilloverProcess avoid) {
        List<SpilloverProcess> candidates = new ArrayList<>(serving.stream().filter(SpilloverProcess::alive).toList());
        if (candidates.size() > 1) {
            candidates.remove(avoid);
        }
        if (candidates.isEmpty()) {
            throw new IllegalStateException("no Spillover instance serves");
        }
        return candidates.get(Math.floorMod(turn.getAndIncrement(), candidates.size()));
    }

    int serving() {
        return (int) serving.stream().filter(SpilloverProcess::alive).count();
    }

    SpilloverProcess named(String name) {
        return all.stream().filter(i -> i.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no instance " + name));
    }

    /** SIGKILLs the named instance; answers when it died. */
    Instant kill(String name) {
        SpilloverProcess instance = named(name);
        serving.remove(instance);
        return instance.kill();
    }

    /** What every instance of the run logged at ERROR level. */
    List<String> errors() {
        return all.stream().flatMap(i -> i.errors().stream()).toList();
    }

    @Override
    public void close() {
        all.stream().filter(SpilloverProcess::alive).forEach(SpilloverProcess::kill);
    }
}
