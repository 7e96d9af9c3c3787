package io.spillover.replay;

import io.spillover.catalog.Catalog;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/** Small fleets and traces for the replay's tests. */
final class Fixtures {

    static final Catalog CATALOG = Catalog.readCsv(Fixtures.class.getResourceAsStream("/catalog/instance-types.csv"));
    static final String EAST = "us-east-1";
    static final String WEST = "us-west-2";
    static final String P5 = "ml.p5.48xlarge";
    static final String P4D = "ml.p4d.24xlarge";
    static final String G5 = "ml.g5.48xlarge";

    private Fixtures() {
    }

    /**
     * p5 runs the v100 column as is, p4d at half its speed, g5 the p100 column; first choices by the weights.
     *
     * @param instances on-demand instances of p5, p4d and g5 in us-east-1
     */
    static ReplayConfig config(Map<String, Double> weights, int p5, int p4d, int g5, List<ReplayConfig.Plan> plans) {
        return new ReplayConfig("test", 7, 1.0,
                List.of(new ReplayConfig.TypeSpec(P5, "v100", 1.0, weights.getOrDefault(P5, 0.0)),
                        new ReplayConfig.TypeSpec(P4D, "v100", 0.5, weights.getOrDefault(P4D, 0.0)),
                        new ReplayConfig.TypeSpec(G5, "p100", 1.0, weights.getOrDefault(G5, 0.0))),
                List.of(new ReplayConfig.OnDemand(EAST, P5, p5), new ReplayConfig.OnDemand(EAST, P4D, p4d),
                        new ReplayConfig.OnDemand(EAST, G5, g5)),
                plans, List.of(new Policy.Polling(60, 3)), null, null);
    }

    /** The same fleet with each team's quota (its guarantee when teams share) this share of each type. */
    static ReplayConfig withQuotaShare(ReplayConfig config, double share) {
        return new ReplayConfig(config.description(), config.seed(), share, config.types(), config.onDemand(),
                config.plans(), config.polling(), config.maxRuntimeHint(), config.fairnessGoal(), config.sharing());
    }

    /** Everyone wants p5 first. */
    static ReplayConfig p5First(int p5, int p4d, int g5) {
        return config(Map.of(P5, 1.0), p5, p4d, g5, List.of());
    }

    static TraceJob job(String id, String team, long submit, int gpus, long v100Seconds) {
        return new TraceJob(id, team, submit, gpus, "test", v100Seconds * 4, v100Seconds * 2, v100Seconds);
    }

    /** A busy random trace: bursts of jobs of 1 to 24 GPUs from three teams, some submitted at the same second. */
    static List<TraceJob> randomTrace(long seed, int jobs) {
        var random = new SplittableRandom(seed);
        var trace = new ArrayList<TraceJob>();
        long at = 0;
        for (int i = 0; i < jobs; i++) {
            at += random.nextInt(4) == 0 ? 0 : random.nextInt(400);
            int gpus = random.nextInt(10) == 0 ? 1 + random.nextInt(24) : 1 + random.nextInt(8);
            trace.add(job("j%04d".formatted(i), "team-" + random.nextInt(3), at, gpus, 60 + random.nextInt(20_000)));
        }
        return trace;
    }

    static JobChoices choices(ReplayConfig config) {
        return new JobChoices(Fleet.of(config, CATALOG), TraceModel.of(config, CATALOG));
    }

    static List<ReplayJob> jobs(ReplayConfig config, List<TraceJob> trace) {
        return choices(config).build(Window.WHOLE_TRACE.select(trace)).jobs();
    }

    /** A job with its own list, as the platform records one: the same run on every type it lists. */
    static ReplayJob listed(String id, String team, long submit, int priority, long run,
                            io.spillover.placement.PreferenceEntry... entries) {
        var runs = new java.util.HashMap<String, Long>();
        for (var entry : entries) {
            runs.put(entry.instanceType(), run);
        }
        return new ReplayJob(id, team, submit, 0, priority, io.spillover.catalog.JobKind.TRAINING, null,
                List.of(entries), runs, null, null, null, 8);
    }

    /** On-demand instances of a type in us-east-1. */
    static io.spillover.placement.PreferenceEntry onDemand(String type, int count) {
        return new io.spillover.placement.PreferenceEntry(type, count, EAST, null);
    }

    /** Each run as "id:start:type", to compare replays whole. */
    static List<String> starts(PolicyRun run) {
        return run.runs().stream().map(r -> r.job().id() + ":" + r.startSeconds() + ":" + r.entry().instanceType()
                + ":" + r.entry().offering().source()).sorted().toList();
    }
}
