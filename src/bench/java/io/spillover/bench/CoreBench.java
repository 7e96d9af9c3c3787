package io.spillover.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/** Runs the placement core's JMH benchmarks; JMH writes its own JSON, this keeps the figures for the doc. */
final class CoreBench {

    /**
     * One benchmark's result: operations per second with JMH's 99.9% confidence half-width, and the bytes
     * allocated per operation (JMH's GC profiler; NaN when it gave none).
     */
    record Figure(String benchmark, Map<String, String> params, double score, double error, String unit,
                  double bytesPerOperation) {
    }

    /** What was run, to print beside the figures. */
    record Settings(int forks, int warmups, int warmupSeconds, int iterations, int iterationSeconds) {

        String describe() {
            return "%d fork(s), %d warm-up iteration(s) of %d s, %d measured iteration(s) of %d s, 1 thread"
                    .formatted(forks, warmups, warmupSeconds, iterations, iterationSeconds);
        }
    }

    private CoreBench() {
    }

    /**
     * On the 2-core machine the JIT takes 5 to 10 s to bring these benchmarks to a steady state (measured:
     * 50,000 → 1,500,000 decisions/s over the first 8 s), so even the quick mode warms up for 10 s.
     */
    static Settings settings(boolean quick) {
        return quick ? new Settings(1, 10, 1, 5, 1) : new Settings(2, 15, 1, 10, 1);
    }

    static List<Figure> run(Settings settings, Path json) throws RunnerException {
        try {
            Files.createDirectories(json.getParent());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        var options = new OptionsBuilder()
                .include("io\\.spillover\\.bench\\.core\\..*")
                .forks(settings.forks())
                .warmupIterations(settings.warmups())
                .warmupTime(TimeValue.seconds(settings.warmupSeconds()))
                .measurementIterations(settings.iterations())
                .measurementTime(TimeValue.seconds(settings.iterationSeconds()))
                .threads(1)
                .addProfiler(GCProfiler.class)
                .jvmArgs("-Xms1g", "-Xmx1g")
                .resultFormat(ResultFormatType.JSON)
                .result(json.toString())
                .build();
        Collection<RunResult> results = new Runner(options).run();
        return results.stream().map(CoreBench::figure).toList();
    }

    private static Figure figure(RunResult result) {
        var params = new TreeMap<String, String>();
        result.getParams().getParamsKeys().forEach(k -> params.put(k, result.getParams().getParam(k)));
        String name = result.getParams().getBenchmark();
        Result<?> allocated = result.getSecondaryResults().get("gc.alloc.rate.norm");
        return new Figure(name.substring(name.lastIndexOf('.', name.lastIndexOf('.') - 1) + 1), params,
                result.getPrimaryResult().getScore(), result.getPrimaryResult().getScoreError(),
                result.getPrimaryResult().getScoreUnit(), allocated == null ? Double.NaN : allocated.getScore());
    }
}
