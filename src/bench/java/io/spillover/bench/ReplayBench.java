package io.spillover.bench;

import io.spillover.catalog.Catalog;
import io.spillover.replay.Goals;
import io.spillover.replay.JobRun;
import io.spillover.replay.NearbyFleets;
import io.spillover.replay.Policy;
import io.spillover.replay.PolicyReport;
import io.spillover.replay.PolicyRun;
import io.spillover.replay.Replay;
import io.spillover.replay.ReplayConfig;
import io.spillover.replay.ReplayJob;
import io.spillover.replay.ReplayResult;
import io.spillover.replay.Trace;
import io.spillover.replay.TraceJob;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/** Runs the trace replay of the options' trace, fleet and window under every policy. */
final class ReplayBench {

    private ReplayBench() {
    }

    /** The fleet file as the options change it, and the trace as they select and move it. */
    private record Input(ReplayConfig config, List<TraceJob> trace, String traceName) {
    }

    private static Input input(BenchOptions options) {
        ReplayConfig config = readConfig(options.fleet());
        if (!options.polling().isEmpty()) {
            config = config.withPolling(options.polling());
        }
        List<TraceJob> trace = readTrace(options.trace());
        String traceName = options.trace().toString();
        if (options.shiftTeams() != null) {
            trace = Trace.shiftTeams(trace, options.shiftTeams(), BenchOptions.SHIFT_DAYS);
            traceName += " (each team's submissions moved by up to " + BenchOptions.SHIFT_DAYS + " days, seed "
                    + options.shiftTeams() + ")";
        }
        return new Input(config, trace, traceName);
    }

    static ReplayResult run(BenchOptions options) {
        Input input = input(options);
        System.out.printf("Replaying %s (%d jobs) on %s%n", input.traceName(), input.trace().size(), options.fleet());
        ReplayResult result = new Replay(input.config(), catalog(), options.exact(), System::nanoTime,
                options.policies()).run(input.traceName(), input.trace(), options.window(), options.estimates(),
                (run, report) -> {
                    log(report);
                    writeRuns(options.out().resolve(options.replayName() + "-runs-" + report.policy() + ".csv"), run);
                });
        if (result.estimates() != null) {
            var e = result.estimates();
            System.out.printf("  estimates: %d jobs, coverage %.3f, median relative error %.3f (bias %+.3f); forecast alone"
                            + " %.3f, %.3f; naive %.3f, %.3f (bias %+.3f); %d forecasts in %,d ms%n", e.jobs(),
                    e.intervalCoverage(), e.medianRelativeError(), e.medianBias(), e.forecast().intervalCoverage(),
                    e.forecast().medianRelativeError(), e.baseline().intervalCoverage(),
                    e.baseline().medianRelativeError(), e.baseline().medianBias(), e.forecasts(), e.forecastMillis());
            e.byWait().forEach(b -> System.out.printf("    %-14s %5d jobs: coverage %.3f, error %.3f; naive %.3f, %.3f%n",
                    b.waited(), b.jobs(), b.intervalCoverage(), b.medianRelativeError(), b.naiveCoverage(),
                    b.naiveError()));
        }
        return result;
    }

    /**
     * The same trace and policies on each fleet one on-demand instance away ({@link NearbyFleets#around}) or with other
     * draws ({@link NearbyFleets#draws}), the goals that compare teams judged over them and {@code base}, the fleet
     * file's own replay.
     */
    static NearbyFleets nearby(BenchOptions options, ReplayResult base) {
        Input input = input(options);
        var replays = new LinkedHashMap<String, List<PolicyReport>>();
        replays.put("as it is", base.policies());
        // only what the judgment compares: lent and hard quotas, and the scripts under the same quotas
        Set<String> policies = input.config().policies().stream().map(Policy::name)
                .filter(name -> name.equals(Goals.POLICY) || name.equals(Goals.WITHOUT_SHARING)
                        || name.startsWith("polling-") && !name.endsWith(Goals.FREE_FOR_ALL))
                .filter(name -> options.policies().isEmpty() || options.policies().contains(name))
                .collect(Collectors.toSet());
        List<NearbyFleets.Nearby> fleets = options.nearby().startsWith("draws")
                ? NearbyFleets.draws(input.config(), options.draws()) : NearbyFleets.around(input.config());
        for (NearbyFleets.Nearby fleet : fleets) {
            System.out.printf("Replaying the same on a nearby fleet: %s%n", fleet.change());
            replays.put(fleet.change(), new Replay(fleet.config(), catalog(), options.exact(), System::nanoTime,
                    policies).run(input.traceName(), input.trace(), options.window(), null, (run, report) -> {
                        log(report);
                        writeRuns(options.out().resolve(options.replayName() + "-nearby-" + options.nearby()).resolve(
                                fleet.change().replaceAll("[^A-Za-z0-9.]+", "-") + "runs-" + report.policy() + ".csv"),
                                run);
                    }).policies());
        }
        NearbyFleets judged = NearbyFleets.judge(replays);
        System.out.printf("  over %d fleets: worse off %s; Jain's index %.3f shared, %.3f hard, script %s%n",
                replays.size(), judged.worseOff(), judged.fairnessShared(), judged.fairnessHard(),
                judged.fairnessScript() == null ? "-" : String.format("%.3f", judged.fairnessScript()));
        return judged;
    }

    private static void log(PolicyReport report) {
        System.out.printf("  %-20s %6d jobs, mean wait %10.0f s, p99 %9d s, %5.1f%% on first choice,"
                        + " %,d evaluations in %,d ms%n", report.policy(), report.jobs(),
                report.queueingDelay().mean(), report.queueingDelay().p99(), 100 * report.firstChoiceShare(),
                report.evaluations(), report.wallMillis());
    }

    /** Every job's run, one line each, for whoever wants to look further than the tables. */
    private static void writeRuns(Path file, PolicyRun run) {
        var lines = new ArrayList<String>(run.runs().size() + 1);
        lines.add("job_id,team,submit_s,gpus,choice,instance_type,instance_count,source,start_s,end_s,wait_s,"
                + "first_start_s,preemptions,borrowed");
        for (JobRun r : run.runs()) {
            ReplayJob job = r.job();
            lines.add(String.join(",", job.id(), job.team(), Long.toString(job.submitSeconds()),
                    Integer.toString(job.accelerators()), Integer.toString(r.choice()), r.entry().instanceType(),
                    Integer.toString(r.entry().instanceCount()), r.entry().offering().source(),
                    Long.toString(r.startSeconds()), Long.toString(r.endSeconds()), Long.toString(r.waitSeconds()),
                    Long.toString(r.firstStartSeconds()), Integer.toString(r.preempted().size()),
                    Boolean.toString(r.borrowed())));
        }
        try {
            Files.createDirectories(file.getParent());
            Files.write(file, lines);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The replay module reads no files and knows no JSON library: the runner opens the trace for it. */
    private static List<TraceJob> readTrace(Path csv) {
        try (Reader reader = Files.newBufferedReader(csv, StandardCharsets.UTF_8)) {
            return Trace.read(reader);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the trace " + csv, e);
        }
    }

    /** The fleet file, as the {@link ReplayConfig} record it describes; a misspelt key is refused, not ignored. */
    static ReplayConfig readConfig(Path json) {
        try (InputStream in = Files.newInputStream(json)) {
            // Jackson 3 ignores unknown properties by default; a misspelt key must not pass unnoticed
            return JsonMapper.builder().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build()
                    .readValue(in, ReplayConfig.class);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the replay configuration " + json, e);
        }
    }

    private static Catalog catalog() {
        try (InputStream csv = ReplayBench.class.getResourceAsStream("/catalog/instance-types.csv")) {
            return Catalog.readCsv(csv);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
