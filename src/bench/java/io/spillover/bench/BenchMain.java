package io.spillover.bench;

import io.spillover.replay.NearbyFleets;
import io.spillover.replay.ReplayResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Runs the benchmarks of one mode and records them: JSON under {@code target/bench/}, tables in
 * {@code docs/benchmarks.md} (only the sections of what ran are replaced). See {@link BenchOptions#USAGE}.
 */
public final class BenchMain {

    private BenchMain() {
    }

    /** What a JSON result holds besides the figures: where, when and how they were made. */
    record Recorded<T>(String command, Machine machine, String settings, T results) {
    }

    public static void main(String[] args) throws Exception {
        BenchOptions options;
        try {
            options = BenchOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        var sections = new LinkedHashMap<String, String>();
        if (options.runs("core")) {
            Machine machine = Machine.describe();
            CoreBench.Settings settings = CoreBench.settings(options.quick());
            List<CoreBench.Figure> figures = CoreBench.run(settings, options.out().resolve("jmh-" + options.mode() + ".json"));
            write(options.out().resolve("core-" + options.mode() + ".json"),
                    new Recorded<>(options.command(), machine, settings.describe(), figures));
            sections.put("core-" + options.mode(), Tables.core(figures, settings, machine, options.command()));
        }
        if (options.runs("replay")) {
            Machine machine = Machine.describe();
            ReplayResult result = ReplayBench.run(options);
            String settings = options.exact() ? "exact (no simulator shortcuts)" : "default";
            write(options.out().resolve(options.replayName() + ".json"),
                    new Recorded<>(options.command(), machine, settings, result));
            sections.put(options.replayName(), Tables.replay(result, machine, options.command()));
            if (options.nearby() != null) {
                NearbyFleets judged = ReplayBench.nearby(options, result);
                write(options.out().resolve(options.replayName() + "-nearby-" + options.nearby() + ".json"),
                        new Recorded<>(options.command(), machine, settings, judged));
                sections.put(options.replayName() + "-nearby-" + options.nearby(), Tables.nearby(judged, machine,
                        options.command()));
            }
        }
        if (options.runs("service")) {
            Machine machine = Machine.describe();
            ServiceBench.Settings settings = ServiceBench.settings(options.quick());
            ServiceBench.Result result = ServiceBench.run(settings);
            write(options.out().resolve("service-" + options.mode() + ".json"),
                    new Recorded<>(options.command(), machine, settings.describe(), result));
            Path figure = options.doc().resolveSibling("scale-" + options.mode() + ".png");
            ScaleFigure.write(figure, result.levels(), result.oneCommitMs());
            sections.put("service-" + options.mode(), Tables.service(result, machine, options.command(),
                    figure.getFileName().toString()));
        }
        if (options.runs("webhooks")) {
            Machine machine = Machine.describe();
            ServiceBench.Settings settings = ServiceBench.settings(options.quick());
            ServiceBench.WebhookComparison result = ServiceBench.webhooks(settings, 100, 2);
            write(options.out().resolve("webhooks-" + options.mode() + ".json"),
                    new Recorded<>(options.command(), machine, settings.describe(), result));
            sections.put("webhooks-" + options.mode(), Tables.webhooks(result, machine, options.command()));
        }
        BenchmarksDoc.update(options.doc(), sections);
        System.out.println("Results: " + options.out() + "/, tables: " + options.doc());
    }

    private static void write(Path file, Object value) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build()
                .writeValueAsString(value));
    }
}
