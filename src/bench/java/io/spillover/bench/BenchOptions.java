package io.spillover.bench;

import io.spillover.replay.EstimateAccuracy;
import io.spillover.replay.Goals;
import io.spillover.replay.Policy;
import io.spillover.replay.Window;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What one benchmark run does, from its arguments: a mode ({@code quick} or {@code full}) and options, given
 * by the bench profile as {@code -Dbench=MODE -Dbench.args="--option=value ..."}.
 *
 * @param window  the part of the trace to replay; quick mode replays the first {@value #QUICK_DAYS} days
 * @param polling the polling variants to replay instead of the configuration's, empty to keep those
 * @param exact   replay without the simulator's shortcuts (slow; for checking them on a window)
 * @param label   names the replay's results apart from the default fleet's ({@code --label=scarce}: files
 *                {@code replay-full-scarce*}, section {@code replay-full-scarce}), empty for the default
 * @param shiftTeams replay the trace with each team's submissions moved by an offset of up to
 *                   {@value #SHIFT_DAYS} days drawn from this seed ({@code Trace#shiftTeams}), null for as recorded
 * @param estimates  how the default policy's estimated starts are measured ({@code --estimates=N}: at most N of the
 *                   jobs still waiting after their submission's cycle, 0 for all; {@code --arrivals=none|last-day};
 *                   {@code --estimate-runs=history|true}: what the forecast knows of run times); null with
 *                   {@code --estimates=off}
 * @param policies   the names of the replay's policies to run ({@code --policies=spillover,no-sharing}), empty for
 *                   all; the goals need single-type, spillover and a polling script
 * @param nearby     also replay the fleets one on-demand instance away ({@code --nearby} or {@code --nearby=fleets}) or
 *                   the fleet with {@value #DRAWS} other draws of its jobs' lists ({@code --nearby=draws}; N others
 *                   with {@code --nearby=draws:N}, named {@code draws-N} apart from the eight's) under
 *                   {@code spillover}, {@code no-sharing} and the scripts, and judge the goals that compare teams over
 *                   all of them ({@code NearbyFleets}); null for neither
 */
record BenchOptions(String mode, Set<String> parts, Path trace, Path fleet, Window window,
                    List<Policy.Polling> polling, Path out, Path doc, boolean exact, String label, Long shiftTeams,
                    EstimateAccuracy.Settings estimates, Set<String> policies, String nearby,
                    String command) {

    static final int SHIFT_DAYS = 14;
    static final int DRAWS = 8;

    static final long QUICK_DAYS = 30;
    static final String USAGE = """
            usage: BenchMain quick|full [--parts=core,replay,service] [--trace=PATH] [--fleet=PATH] [--window-days=D]
                                        [--max-jobs=N] [--poll=60x3,30x3] [--out=DIR] [--doc=PATH] [--exact]
                                        [--label=NAME] [--shift-teams=SEED] [--estimates=N|off]
                                        [--arrivals=none|last-day] [--estimate-runs=history|true]
                                        [--policies=NAME,...] [--nearby[=fleets|draws[:N]]]
            From Maven: ./mvnw -Pbench -Dbench=quick test-compile exec:exec
                        ./mvnw -Pbench -Dbench=full -Dbench.args="--parts=replay --poll=30x5" test-compile exec:exec
                        ./mvnw -Pbench -Dbench=quick -Dbench.args="--parts=service" test-compile exec:exec""";

    static BenchOptions parse(String[] args) {
        var tokens = new ArrayList<String>();
        Arrays.stream(args).flatMap(a -> Arrays.stream(a.strip().split("\\s+"))).filter(t -> !t.isEmpty())
                .forEach(tokens::add);
        if (tokens.isEmpty() || !(tokens.get(0).equals("quick") || tokens.get(0).equals("full"))) {
            throw new IllegalArgumentException("the first argument must be quick or full\n" + USAGE);
        }
        String mode = tokens.get(0);
        List<String> rest = tokens.subList(1, tokens.size());
        Map<String, String> options = new HashMap<>();
        for (String token : rest) {
            if (!token.startsWith("--")) {
                throw new IllegalArgumentException("unexpected argument " + token + "\n" + USAGE);
            }
            int eq = token.indexOf('=');
            options.put(eq < 0 ? token.substring(2) : token.substring(2, eq), eq < 0 ? "true" : token.substring(eq + 1));
        }
        var known = Set.of("parts", "trace", "fleet", "window-days", "max-jobs", "poll", "out", "doc", "exact",
                "label", "shift-teams", "estimates", "arrivals", "estimate-runs", "policies", "nearby");
        options.keySet().stream().filter(k -> !known.contains(k)).findFirst().ifPresent(k -> {
            throw new IllegalArgumentException("unknown option --" + k + "\n" + USAGE);
        });
        Set<String> policies = options.containsKey("policies") ? Set.of(options.get("policies").split(",")) : Set.of();
        if (options.containsKey("nearby") && !policies.isEmpty()
                && !policies.containsAll(Set.of(Goals.POLICY, Goals.WITHOUT_SHARING))) {
            throw new IllegalArgumentException("--nearby compares " + Goals.POLICY + " with " + Goals.WITHOUT_SHARING
                    + ": --policies must name both\n" + USAGE);
        }
        boolean quick = mode.equals("quick");
        Long windowDays = options.containsKey("window-days") ? Long.valueOf(options.get("window-days"))
                : quick ? QUICK_DAYS : null;
        Integer maxJobs = options.containsKey("max-jobs") ? Integer.valueOf(options.get("max-jobs")) : null;
        String command = "./mvnw -Pbench -Dbench=" + mode
                + (rest.isEmpty() ? "" : " -Dbench.args=\"" + String.join(" ", rest) + "\"") + " test-compile exec:exec";
        return new BenchOptions(mode, Set.copyOf(Arrays.asList(options.getOrDefault("parts", "core,replay").split(","))),
                Path.of(options.getOrDefault("trace", "../shared/traces/philly-gavel/seed0.csv")),
                Path.of(options.getOrDefault("fleet", "src/bench/replay-fleet.json")),
                new Window(windowDays == null ? null : windowDays * 86_400, maxJobs),
                options.containsKey("poll") ? polling(options.get("poll")) : List.of(),
                Path.of(options.getOrDefault("out", "target/bench")),
                Path.of(options.getOrDefault("doc", "docs/benchmarks.md")),
                Boolean.parseBoolean(options.getOrDefault("exact", "false")), options.getOrDefault("label", ""),
                options.containsKey("shift-teams") ? Long.valueOf(options.get("shift-teams")) : null,
                estimates(options.getOrDefault("estimates", quick ? "200" : "1000"), options.getOrDefault("arrivals", "none"),
                        options.getOrDefault("estimate-runs", "history")),
                policies, nearby(options.get("nearby")), command);
    }

    private static String nearby(String value) {
        if (value == null) {
            return null;
        }
        if (value.matches("draws:[0-9]{1,3}") && Integer.parseInt(value.substring("draws:".length())) > 0) {
            int count = Integer.parseInt(value.substring("draws:".length()));
            return count == DRAWS ? "draws" : "draws-" + count;
        }
        return switch (value) {
            case "true", "fleets" -> "fleets";
            case "draws" -> "draws";
            default -> throw new IllegalArgumentException(
                    "--nearby takes fleets, draws or draws:N (N other draws, 1 to 999), not " + value + "\n" + USAGE);
        };
    }

    /** How many other draws {@code --nearby=draws[:N]} replays. */
    int draws() {
        return nearby.startsWith("draws-") ? Integer.parseInt(nearby.substring("draws-".length())) : DRAWS;
    }

    private static EstimateAccuracy.Settings estimates(String jobs, String arrivals, String runs) {
        if (jobs.equals("off")) {
            return null;
        }
        var model = switch (arrivals) {
            case "none" -> EstimateAccuracy.Arrivals.NONE;
            case "last-day" -> EstimateAccuracy.Arrivals.LAST_DAY;
            default -> throw new IllegalArgumentException("--arrivals takes none or last-day, not " + arrivals);
        };
        var knowledge = switch (runs) {
            case "history" -> EstimateAccuracy.RunKnowledge.HISTORY;
            case "true" -> EstimateAccuracy.RunKnowledge.TRUE_RUNS;
            default -> throw new IllegalArgumentException("--estimate-runs takes history or true, not " + runs);
        };
        return EstimateAccuracy.Settings.DEFAULT.withMaxJobs(Integer.parseInt(jobs)).withArrivals(model)
                .withRuns(knowledge);
    }

    /** "60x3,30x3": every 60 s, 3 tries per type; then every 30 s, 3 tries per type. */
    private static List<Policy.Polling> polling(String value) {
        return Arrays.stream(value.split(",")).map(v -> {
            String[] parts = v.split("x");
            if (parts.length != 2) {
                throw new IllegalArgumentException("--poll takes SECONDSxTRIES[,...], not " + value);
            }
            return new Policy.Polling(Long.parseLong(parts[0]), Integer.parseInt(parts[1]));
        }).toList();
    }

    /** The name of the replay's JSON, runs and doc section: replay-MODE[-LABEL]. */
    String replayName() {
        return "replay-" + mode + (label.isEmpty() ? "" : "-" + label);
    }

    boolean runs(String part) {
        return parts.contains(part);
    }

    boolean quick() {
        return mode.equals("quick");
    }
}
