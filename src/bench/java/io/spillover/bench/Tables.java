package io.spillover.bench;

import io.spillover.replay.EstimateReport;
import io.spillover.replay.Goals;
import io.spillover.replay.NearbyFleets;
import io.spillover.replay.PolicyReport;
import io.spillover.replay.ReplayResult;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;

/** The Markdown of the generated sections of docs/benchmarks.md. */
final class Tables {

    private Tables() {
    }

    static String core(List<CoreBench.Figure> figures, CoreBench.Settings settings, Machine machine, String command) {
        var md = new StringBuilder();
        header(md, "Placement core (JMH)", machine, command);
        md.append("JMH 1.37, throughput mode, ").append(settings.describe())
                .append("; ± is JMH's 99.9% confidence half-width; allocation from JMH's GC profiler.\n\n");
        md.append("| benchmark | params | operations/s | ± | time per operation | jobs decided/s | allocated per operation |\n");
        md.append("| --- | --- | ---: | ---: | ---: | ---: | ---: |\n");
        for (CoreBench.Figure f : figures) {
            String pending = f.params().get("pending");
            double jobs = pending == null ? (f.benchmark().endsWith("copySnapshot") ? Double.NaN : f.score())
                    : f.score() * Integer.parseInt(pending);
            md.append("| `").append(f.benchmark()).append("` | ")
                    .append(f.params().isEmpty() ? "" : f.params().toString().replaceAll("[{}]", ""))
                    .append(" | ").append(number(f.score())).append(" | ").append(number(f.error()))
                    .append(" | ").append(perOperation(f.score())).append(" | ")
                    .append(Double.isNaN(jobs) ? "" : number(jobs)).append(" | ").append(bytes(f.bytesPerOperation()))
                    .append(" |\n");
        }
        return md.toString();
    }

    static String replay(ReplayResult r, Machine machine, String command) {
        var md = new StringBuilder();
        header(md, "Trace replay", machine, command);
        md.append("- Trace: `").append(r.trace()).append("`: ").append(r.window()).append(".\n");
        md.append("- Replayed: ").append(r.jobsReplayed()).append(" jobs of ").append(r.teams()).append(" teams");
        if (!r.unplaceable().isEmpty()) {
            md.append("; **").append(r.unplaceable().size()).append(" job(s) left out** because no offering or quota")
                    .append(" of this fleet could ever hold them: ").append(String.join(", ", r.unplaceable()));
        }
        md.append(".\n- Entries left out of lists: ").append(r.infeasibleEntries())
                .append(" that the job could never get (more instances than the offering or the team's quota), ")
                .append(r.entriesBeyondFive()).append(" beyond five.\n");
        md.append("- Fleet: ");
        md.append(String.join(", ", r.offerings().entrySet().stream().map(e -> e.getValue() + " × " + e.getKey()).toList()));
        md.append("; plans: ").append(r.plans()).append("; quota of every team per type: ").append(r.quotas()).append(".\n");
        md.append("- Run time on a type: ").append(r.runtimes()).append("; first-choice weights: ")
                .append(r.firstChoiceWeights()).append(".\n\n");

        if (!r.goals().isEmpty()) {
            md.append("The goals for the default policy (`").append(Goals.POLICY)
                    .append("`: the default queue policy, guarantees lent and borrowed); \"the better polling script\" is"
                            + " the lower of the scripts' figures under the same quotas, one figure at a time, and"
                            + " \"free-for-all\" the scripts' with every quota lifted:\n\n| goal | figure | target | met |\n"
                            + "| --- | ---: | ---: | --- |\n");
            for (Goals goal : r.goals()) {
                md.append("| ").append(goal.goal()).append(" | ").append(goalFigure(goal, goal.achieved()))
                        .append(" | ").append(goal.atMost() ? "≤ " : "≥ ").append(goalFigure(goal, goal.target()))
                        .append(" | ").append(goal.met() ? "yes" : "**no**").append(" |\n");
            }
            md.append("\n");
        }

        md.append("| policy | jobs | mean wait | p50 | p95 | p99 | max | on 1st choice | mean run | mean completion"
                + " | fleet util. (makespan) | fleet util. (until last arrival) | plan util. | makespan |\n");
        md.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
        for (PolicyReport p : r.policies()) {
            var d = p.queueingDelay();
            md.append("| ").append(p.policy()).append(" | ").append(p.started())
                    .append(p.neverStarted() > 0 ? " (+" + p.neverStarted() + " never started)" : "")
                    .append(" | ").append(duration(d.mean())).append(" | ").append(duration(d.p50()))
                    .append(" | ").append(duration(d.p95())).append(" | ").append(duration(d.p99()))
                    .append(" | ").append(duration(d.max())).append(" | ").append(percent(p.firstChoiceShare()))
                    .append(" | ").append(duration(p.meanRunSeconds())).append(" | ").append(duration(p.meanCompletionSeconds()))
                    .append(" | ").append(percent(p.fleetUtilization())).append(" | ")
                    .append(percent(p.fleetUtilizationUntilLastArrival())).append(" | ").append(percent(p.planUtilization()))
                    .append(" | ").append(duration(p.makespanSeconds())).append(" |\n");
        }

        md.append("\nFairness and limits: Jain's index over the teams' mean slowdowns ((wait + run) / run per job;"
                + " 1 = every team slowed alike), jobs that waited past SPEC's default maximum pending time of 24 h"
                + " (the service would have stopped them), and the plans' use while a job that lists the plan"
                + " waited:\n\n| policy | Jain's index (slowdown) | worst team's mean slowdown | waited > 24 h"
                + " | plan util. while a job listing it waits |\n| --- | ---: | ---: | ---: | ---: |\n");
        for (PolicyReport p : r.policies()) {
            var worst = p.slowdownByTeam().entrySet().stream().max(java.util.Map.Entry.comparingByValue());
            md.append("| ").append(p.policy()).append(" | ").append(fixed(p.fairness(), 3)).append(" | ")
                    .append(worst.map(e -> fixed(e.getValue(), 1) + " (" + e.getKey() + ")").orElse("–"))
                    .append(" | ").append(String.format(Locale.ROOT, "%,d", p.pastMaxPendingTime())).append(" | ")
                    .append(String.format(Locale.ROOT, "%.2f%%", 100 * p.planUtilizationWhileWaiting())).append(" |\n");
        }

        sharing(md, r);

        md.append("\nMean slowdown per team ((wait + run) / run, its jobs that started):\n\n| team | jobs |");
        r.policies().forEach(p -> md.append(" ").append(p.policy()).append(" |"));
        md.append("\n| --- | ---: |");
        r.policies().forEach(p -> md.append(" ---: |"));
        md.append("\n");
        var slowTeams = new TreeSet<String>();
        r.policies().forEach(p -> slowTeams.addAll(p.slowdownByTeam().keySet()));
        for (String team : slowTeams) {
            md.append("| ").append(team).append(" | ").append(r.policies().get(0).jobsByTeam().getOrDefault(team, 0L))
                    .append(" |");
            r.policies().forEach(p -> {
                Double slowdown = p.slowdownByTeam().get(team);
                md.append(" ").append(slowdown == null ? "–" : fixed(slowdown, 2)).append(" |");
            });
            md.append("\n");
        }

        md.append("\nMean wait per team (its jobs that started):\n\n| team | jobs |");
        r.policies().forEach(p -> md.append(" ").append(p.policy()).append(" |"));
        md.append("\n| --- | ---: |");
        r.policies().forEach(p -> md.append(" ---: |"));
        md.append("\n");
        var teams = new TreeSet<String>();
        r.policies().forEach(p -> teams.addAll(p.meanWaitByTeamSeconds().keySet()));
        for (String team : teams) {
            md.append("| ").append(team).append(" | ").append(r.policies().get(0).jobsByTeam().getOrDefault(team, 0L))
                    .append(" |");
            r.policies().forEach(p -> {
                Double wait = p.meanWaitByTeamSeconds().get(team);
                md.append(" ").append(wait == null ? "–" : duration(wait)).append(" |");
            });
            md.append("\n");
        }

        md.append("\nStarts by position in the job's list (0 = first choice), utilization per offering, the jobs"
                + " clients submitted (a polling script submits at every try) and the simulation's own cost:\n\n| policy | starts by position | utilization per offering"
                + " | client submissions | core decisions | events | wall time |\n| --- | --- | --- | ---: | ---: | ---: | ---: |\n");
        for (PolicyReport p : r.policies()) {
            md.append("| ").append(p.policy()).append(" | ").append(p.startsByChoice()).append(" | ")
                    .append(String.join(", ", p.utilizationByOffering().entrySet().stream()
                            .map(e -> e.getKey() + " " + percent(e.getValue())).toList()))
                    .append(" | ").append(number(p.clientSubmissions())).append(" | ").append(number(p.evaluations()))
                    .append(" | ").append(number(p.events()))
                    .append(" | ").append(String.format(Locale.ROOT, "%.1f s", p.wallMillis() / 1000.0)).append(" |\n");
        }
        if (r.estimates() != null) {
            estimates(md, r.estimates());
        }
        return md.toString();
    }

    /** A goal's figure or target in its unit: a ratio, a share, a count of teams, a delay, an index. */
    private static String goalFigure(Goals goal, double value) {
        if (goal.goal().contains("÷ GPU-hours")) {
            return String.format(Locale.ROOT, "%.3f%%", 100 * value);
        }
        if (goal.goal().contains("÷")) {
            return fixed(value, 2) + " ×";
        }
        if (goal.goal().startsWith("plan")) {
            return String.format(Locale.ROOT, "%.2f%%", 100 * value);
        }
        if (goal.goal().startsWith("teams")) {
            return fixed(value, 0);
        }
        if (goal.goal().contains("delay")) {
            return duration(value);
        }
        return fixed(value, 3);
    }

    /**
     * What lending did per policy that shares; the queue, the oracle and the default against the free-for-all scripts;
     * and per team, the default's waits beside the same policy's with hard quotas.
     */
    private static void sharing(StringBuilder md, ReplayResult r) {
        var shared = r.policies().stream().filter(p -> p.sharing().borrowedStarts() > 0 || p.sharing().preemptions() > 0
                || p.policy().equals(Goals.POLICY)).toList();
        if (shared.isEmpty()) {
            return;
        }
        md.append("\nLending: attempts started beyond their team's quota (borrowed), placements preempted by a reclaim"
                + " (and the jobs preempted), GPU-hours"
                + " of work lost to preemption (runs since the last checkpoint and restarts) over all GPU-hours run, and"
                + " the lender's reclaim delay: for each job that claimed instances borrowers held (it fitted within its"
                + " team's quota once they came back), from its first claim to its start; and the same over the jobs"
                + " whose claims waited for preemptible borrowers only, never for a bounded one to end:\n\n| policy"
                + " | borrowed starts | preemptions (jobs) | GPU-hours lost / run | lenders' jobs that claimed"
                + " | reclaim delay p50 | p99 | max | preemptible borrowers only: p99 | max |"
                + "\n| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
        for (PolicyReport p : shared) {
            var s = p.sharing();
            var delay = s.reclaimDelay();
            md.append("| ").append(p.policy()).append(" | ").append(count(s.borrowedStarts())).append(" | ")
                    .append(count(s.preemptions())).append(" (").append(count(s.preemptedJobs())).append(") | ")
                    .append(String.format(Locale.ROOT, "%,.0f / %,.0f (%.3f%%)", s.gpuHoursLost(), s.gpuHoursRun(),
                            100 * s.lostShare())).append(" | ").append(count(s.claims())).append(" | ")
                    .append(duration(delay.p50())).append(" | ").append(duration(delay.p99())).append(" | ")
                    .append(duration(delay.max())).append(" | ").append(duration(s.preemptibleDelay().p99()))
                    .append(" | ").append(duration(s.preemptibleDelay().max())).append(" |\n");
        }
        var freeForAll = r.policies().stream().filter(p -> p.policy().startsWith("polling-")
                && p.policy().endsWith(Goals.FREE_FOR_ALL)).toList();
        if (!freeForAll.isEmpty()) {
            double bestMean = freeForAll.stream().mapToDouble(p -> p.queueingDelay().mean()).min().orElseThrow();
            double bestCompletion = freeForAll.stream().mapToDouble(PolicyReport::meanCompletionSeconds).min()
                    .orElseThrow();
            md.append("\nAgainst the free-for-all (every quota lifted; the better script's mean wait is ")
                    .append(duration(bestMean)).append(", its mean completion ").append(duration(bestCompletion))
                    .append("):\n\n| policy | quotas | mean wait | ÷ the better free-for-all script's | mean completion"
                            + " | ÷ the better free-for-all script's |\n| --- | --- | ---: | ---: | ---: | ---: |\n");
            for (PolicyReport p : r.policies()) {
                if (!java.util.List.of(Goals.POLICY, Goals.WITHOUT_SHARING, "oracle", "queue-no-quotas",
                        "oracle-no-quotas").contains(p.policy())) {
                    continue;
                }
                md.append("| ").append(p.policy()).append(" | ").append(p.policy().endsWith(Goals.FREE_FOR_ALL)
                                ? "lifted" : p.policy().equals(Goals.WITHOUT_SHARING) ? "hard" : "lent and borrowed")
                        .append(" | ").append(duration(p.queueingDelay().mean())).append(" | ")
                        .append(fixed(p.queueingDelay().mean() / bestMean, 2)).append(" × | ")
                        .append(duration(p.meanCompletionSeconds())).append(" | ")
                        .append(fixed(p.meanCompletionSeconds() / bestCompletion, 3)).append(" × |\n");
            }
        }
        var withSharing = r.policies().stream().filter(p -> p.policy().equals(Goals.POLICY)).findFirst();
        var without = r.policies().stream().filter(p -> p.policy().equals(Goals.WITHOUT_SHARING)).findFirst();
        if (withSharing.isPresent() && without.isPresent()) {
            var worse = Goals.worseOff(withSharing.get(), without.get());
            md.append("\nNo team worse off for lending: each team's mean wait under `").append(Goals.POLICY)
                    .append("` beside the same policy with hard quotas (`").append(Goals.WITHOUT_SHARING)
                    .append("`); a team is worse off past the larger of 5 % and 2 min:\n\n| team | jobs | mean wait, hard"
                            + " quotas | mean wait, shared | change | mean slowdown, hard | shared | worse off |\n"
                            + "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n");
            for (String team : new TreeSet<>(withSharing.get().meanWaitByTeamSeconds().keySet())) {
                double before = without.get().meanWaitByTeamSeconds().getOrDefault(team, 0.0);
                double after = withSharing.get().meanWaitByTeamSeconds().get(team);
                md.append("| ").append(team).append(" | ").append(withSharing.get().jobsByTeam().getOrDefault(team, 0L))
                        .append(" | ").append(duration(before)).append(" | ").append(duration(after)).append(" | ")
                        .append(after >= before ? "+" : "−").append(duration(Math.abs(after - before))).append(" | ")
                        .append(fixed(without.get().slowdownByTeam().getOrDefault(team, 1.0), 2)).append(" | ")
                        .append(fixed(withSharing.get().slowdownByTeam().getOrDefault(team, 1.0), 2)).append(" | ")
                        .append(worse.contains(team) ? "**yes**" : "no").append(" |\n");
            }
        }
    }

    static String service(ServiceBench.Result r, Machine machine, String command, String figure) {
        var md = new StringBuilder();
        header(md, "Service", machine, command);
        md.append("Settings: ").append(r.settings().describe()).append(". The service runs in the runner's JVM ")
                .append("(-Xmx8g) on its embedded PostgreSQL in a fresh data directory; the clients are ")
                .append("`java.net.http.HttpClient` on localhost, so client and server share the cores.\n\n");
        ServiceBench.Submissions s = r.submissions();
        ServiceBench.Percentiles l = s.latencyMs();
        double commit = r.oneCommitMs();
        double commits = r.singleClientCommitsPerSecond();
        md.append("| benchmark | figure | ratio to the database |\n| --- | ---: | ---: |\n");
        for (CommitRate.Measured c : r.commits()) {
            md.append("| the database: single-row insert + commit, ").append(c.clients()).append(" client(s), 5 s | ")
                    .append(fixed(c.perSecond(), 0)).append(" commits/s, latency p50 / p99 ")
                    .append(fixed(c.latencyMs().p50(), 2)).append(" / ").append(fixed(c.latencyMs().p99(), 2))
                    .append(" ms | ").append(c == r.commits().get(0) ? "the yardstick: one commit = "
                            + fixed(commit, 2) + " ms" : fixed(c.perSecond() / commits, 2) + " × one client's rate")
                    .append(" |\n");
        }
        md.append("| submissions (all `201`, all `PENDING`) | ").append(s.count()).append(" from ").append(s.clients())
                .append(" clients, ").append(s.errors()).append(" errors | |\n");
        md.append("| submission throughput | ").append(fixed(s.perSecond(), 0)).append(" submissions/s | ")
                .append(fixed(s.perSecond() / commits, 2)).append(" × the single-client commit rate |\n");
        md.append("| submission latency p50 / p95 / p99 / max | ").append(fixed(l.p50(), 1)).append(" / ")
                .append(fixed(l.p95(), 1)).append(" / ").append(fixed(l.p99(), 1)).append(" / ").append(fixed(l.max(), 1))
                .append(" ms | p99 = ").append(fixed(l.p99() / commit, 0)).append(" commits |\n");
        EstimatesParts.Floor floor = r.floor();
        md.append("| the floor: a bench-only endpoint of the same stack (token, access rule, JSON body, one `INSERT` in a")
                .append(" transaction), same clients and bodies | ").append(fixed(floor.floor().perSecond(), 0))
                .append(" requests/s, latency p50 / p99 ").append(fixed(floor.floor().latencyMs().p50(), 1))
                .append(" / ").append(fixed(floor.floor().latencyMs().p99(), 1)).append(" ms, ")
                .append(floor.floor().errors()).append(" errors | the submissions' yardstick |\n");
        md.append("| submissions against the floor: throughput, p99 | ").append(fixed(floor.throughputRatio(), 2))
                .append(" × the floor's throughput, p99 ").append(fixed(floor.p99Ratio(), 2))
                .append(" × the floor's p99 | |\n");
        List<ServiceBench.WarmUpRound> warmUp = floor.warmUp();
        if (!warmUp.isEmpty()) {
            ServiceBench.WarmUpRound first = warmUp.get(0);
            ServiceBench.WarmUpRound last = warmUp.get(warmUp.size() - 1);
            md.append("| before them, warm-up rounds until the JIT settles (compiles < ")
                    .append(fixed(100 * ServiceBench.SETTLED_COMPILATION, 0)).append(" % of a round), each ")
                    .append(r.settings().warmup()).append(" submissions then as many floor requests | ")
                    .append(warmUp.size()).append(" rounds; the first ").append(fixed(first.submissionsPerSecond(), 0))
                    .append(" against ").append(fixed(first.floorPerSecond(), 0)).append("/s, the JIT compiling ")
                    .append(fixed(100 * first.compilation(), 0)).append(" % of it; the last ")
                    .append(fixed(last.submissionsPerSecond(), 0)).append(" against ")
                    .append(fixed(last.floorPerSecond(), 0)).append("/s, ").append(fixed(100 * last.compilation(), 1))
                    .append(" % | first ").append(fixed(first.submissionsPerSecond() / first.floorPerSecond(), 2))
                    .append(" ×, last ").append(fixed(last.submissionsPerSecond() / last.floorPerSecond(), 2))
                    .append(" × the floor's rate |\n");
        }
        ServiceBench.Batches b = r.batches();
        md.append("| batch submissions (`jobs:batch`, ").append(b.batchSize()).append(" jobs each, all `201`) | ")
                .append(b.jobs()).append(" jobs from ").append(b.clients()).append(" clients, ").append(b.errors())
                .append(" errors | |\n");
        md.append("| batch throughput | ").append(fixed(b.jobsPerSecond(), 0)).append(" jobs/s | ")
                .append(fixed(b.jobsPerSecond() / commits, 2)).append(" × the single-client commit rate |\n");
        md.append("| batch latency p50 / p99 / max | ").append(fixed(b.latencyMs().p50(), 0)).append(" / ")
                .append(fixed(b.latencyMs().p99(), 0)).append(" / ").append(fixed(b.latencyMs().max(), 0))
                .append(" ms | p99 = ").append(fixed(b.latencyMs().p99() / commit, 0)).append(" commits |\n");
        ServiceBench.Percentiles w = r.wakeUp().serverMs();
        md.append("| wake-up, release (`endedAt`) → next job `STARTING`, server timestamps, p50 / p99 / max | ")
                .append(fixed(w.p50(), 0)).append(" / ").append(fixed(w.p99(), 0)).append(" / ").append(fixed(w.max(), 0))
                .append(" ms over ").append(w.count()).append(" releases | p99 = ").append(fixed(w.p99() / commit, 0))
                .append(", max = ").append(fixed(w.max() / commit, 0)).append(" commits |\n");
        ServiceBench.Sweeps sweeps = r.wakeUp().sweeps();
        md.append("| releases slower than 100 ms; safety sweeps during the chain: count, mean time, share of the chain's time | ")
                .append(r.wakeUp().slowReleases()).append(" of ").append(w.count()).append("; ").append(sweeps.count())
                .append(", ").append(fixed(sweeps.meanMs(), 0)).append(" ms, ").append(fixed(100 * sweeps.shareOfTime(), 2)).append(" % | |\n");
        ServiceBench.Estimations est = r.wakeUp().estimations();
        md.append("| estimations of pending jobs' starts during the chain: count, mean / max time, share of the chain's time | ")
                .append(est.count()).append(", ").append(fixed(est.meanMs(), 0)).append(" / ").append(fixed(est.maxMs(), 0))
                .append(" ms, ").append(fixed(100 * est.shareOfTime(), 1)).append(" % | off the scheduler's thread |\n");
        for (ServiceBench.Polling p : r.wakeUp().polling()) {
            md.append("| polling retry every ").append(p.intervalSeconds()).append(" s: release → retry that sees it, ")
                    .append("analytic mean / p99; simulated mean / p50 / p99 | ")
                    .append(fixed(p.analyticMeanSeconds(), 1)).append(" / ").append(fixed(p.analyticP99Seconds(), 1))
                    .append(" s; ").append(fixed(p.simulatedSeconds().mean(), 1)).append(" / ")
                    .append(fixed(p.simulatedSeconds().p50(), 1)).append(" / ").append(fixed(p.simulatedSeconds().p99(), 1))
                    .append(" s | |\n");
        }
        ServiceBench.Release rel = r.release();
        md.append("| queue filled over HTTP to | ").append(rel.pending()).append(" pending jobs (the last ")
                .append(fixed(rel.fillPerSecond(), 0)).append(" jobs/s in batches) | ")
                .append(fixed(rel.fillPerSecond() / commits, 2)).append(" × the commit rate |\n");
        md.append("| one release with ").append(rel.pending()).append(" pending: `endedAt` → waiting job `STARTING` | ")
                .append(fixed(rel.releaseToStartingMs(), 0)).append(" ms (stop request → `STARTING` seen by a 10 ms poll: ")
                .append(fixed(rel.stopRequestToObservedStartingMs(), 0)).append(" ms) | ")
                .append(fixed(rel.releaseToStartingMs() / commit, 0)).append(" commits |\n");
        md.append("| jobs evaluated in that cycle (database) | ").append(rel.jobsEvaluated()).append(" of ")
                .append(rel.pending()).append(" pending; ").append(rel.waitersOnFreedOffering())
                .append(" list the freed offering; by trigger ").append(rel.jobsEvaluatedByTrigger())
                .append(", by team ").append(rel.jobsEvaluatedByTeam()).append(" | |\n");
        ServiceBench.Memory m = r.memory();
        md.append("| heap used after GC: empty queue → ").append(m.pending()).append(" pending | ")
                .append(bytes(m.heapUsedBeforeQueueBytes())).append(" → ").append(bytes(m.heapUsedAtQueueBytes()))
                .append(" (").append(bytes(m.bytesPerPendingJob())).append(" per pending job); RSS ").append(m.rss())
                .append(" | |\n");
        md.append("\nAt each queue length, in one run (the queue filled in batches; all of it waits on a held offering):")
                .append(" ").append(r.settings().lanes()).append(" chains of one-second jobs at once, each on an")
                .append(" offering of one instance (a lane), each end waking the next on its lane, ")
                .append(number(r.settings().levelReleases())).append(" wake-ups in all; and one release")
                .append(" of an offering a job waits on. One commit = ").append(fixed(commit, 2)).append(" ms.\n\n")
                .append("| pending | wake-up p50 / p99 / max | p99 in commits | safety sweeps during the chain: count, mean")
                .append(" | one release → waiting job `STARTING` | jobs evaluated in that cycle")
                .append(" | estimations of pending jobs' starts during the chain: count, mean / max |\n")
                .append("| ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
        for (ServiceBench.Level level : r.levels()) {
            ServiceBench.Percentiles wake = level.wakeUp().serverMs();
            md.append("| ").append(number(level.pending())).append(" | ").append(fixed(wake.p50(), 0)).append(" / ")
                    .append(fixed(wake.p99(), 0)).append(" / ").append(fixed(wake.max(), 0)).append(" ms | ")
                    .append(fixed(wake.p99() / commit, 0)).append(" | ").append(level.wakeUp().sweeps().count())
                    .append(", ").append(fixed(level.wakeUp().sweeps().meanMs(), 1)).append(" ms | ")
                    .append(fixed(level.release().releaseToStartingMs(), 0)).append(" ms | ")
                    .append(level.release().jobsEvaluated()).append(" | ")
                    .append(level.wakeUp().estimations().count()).append(", ")
                    .append(fixed(level.wakeUp().estimations().meanMs(), 0)).append(" / ")
                    .append(fixed(level.wakeUp().estimations().maxMs(), 0)).append(" ms |\n");
        }
        md.append("\nThe crowded case (issue 29): at each queue length, every pending job waits on one offering, and that")
                .append(" offering is released again and again (the job on it stopped, the first in line starts), first")
                .append(" right after the burst of `jobs:batch` submissions that filled the queue, then once the scheduler")
                .append(" has caught up. Release (`endedAt`) → next job `STARTING`, server timestamps.\n\n")
                .append("| pending | when | from the burst's end | releases | p50 / p99 / max | slower than 100 ms |\n")
                .append("| ---: | --- | ---: | ---: | ---: | ---: |\n");
        for (ServiceBench.Level level : r.levels()) {
            for (ServiceBench.Crowded c : List.of(level.crowdedAfterBurst(), level.crowdedSettled())) {
                ServiceBench.Percentiles p = c.releaseToStartingMs();
                md.append("| ").append(number(c.pending())).append(" | ").append(c.when()).append(" | ")
                        .append(fixed(c.afterBurstSeconds(), 1)).append(" s | ").append(p.count()).append(" | ")
                        .append(fixed(p.p50(), 0)).append(" / ").append(fixed(p.p99(), 0)).append(" / ")
                        .append(fixed(p.max(), 0)).append(" ms | ").append(c.slowerThan100Ms()).append(" |\n");
            }
        }
        md.append("\nStatements seen running longer than ").append(SlowStatements.THRESHOLD_MS)
                .append(" ms during the whole run (`pg_stat_activity` read every 10 ms on a connection of its own): ");
        if (r.slowStatements().isEmpty()) {
            md.append("none.\n");
        } else {
            md.append("\n\n| statement | times seen | longest seen |\n| --- | ---: | ---: |\n");
            for (SlowStatements.Seen seen : r.slowStatements().subList(0, Math.min(15, r.slowStatements().size()))) {
                md.append("| `").append(seen.statement().replace("|", "\\|").replace("`", "'")).append("` | ")
                        .append(seen.samples()).append(" | ").append(fixed(seen.longestMs(), 0)).append(" ms |\n");
            }
        }
        estimates(md, r);
        md.append("\n![Latency against queue length](").append(figure).append(")\n");
        return md.toString();
    }

    /** Issue #32's figures: wake-ups with estimates off and on, what the estimator took, the moved estimates. */
    private static void estimates(StringBuilder md, ServiceBench.Result r) {
        md.append("\nEstimated starts beside placement, in the same run: at each queue length the chains above in two")
                .append(" halves, each half first with the estimator stopped, then with it restarted (its first full")
                .append(" estimation done), the halves of each kind pooled (off, on, off, on: drift falls on both kinds);")
                .append(" in brackets the second off half's p99 over the first's, how far the same chain moves by itself; then")
                .append(" releases of an offering a line of jobs waits on, each moving the rest about an hour earlier (counted")
                .append(" once every job of the line is estimated anew from a reading after the release, its p50 at least")
                .append(" 30 min earlier, or past its deadline: such a job gives up rather than starts);")
                .append(" then two bursts of jobs onto the longest queue, each followed at once by the chains, the")
                .append(" estimator off for the first and on for the second (the first burst's jobs stopped and the")
                .append(" database vacuumed between them, so both land on a queue as long). The estimator's busy share is its")
                .append(" estimations' wall time (the database's work for them included, the time they stepped aside for the")
                .append(" scheduler not) over the chain's; its CPU")
                .append(" share is its thread's CPU time over the chain's time, as a share of one core.\n\n")
                .append("| pending | wake-up p99 / max, estimates off | wake-up p99 / max, estimates on | p99 on ÷ off (off ÷ off)")
                .append(" | estimator during the on chain: busy / CPU share of a core | its estimations: of changes")
                .append(" (mean), full (mean); stepped aside (mean) | release → moved estimates written, p50 / p99 / max |\n")
                .append("| ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
        for (EstimatesParts.AtLevel level : r.estimates()) {
            EstimatesParts.Load load = level.load();
            md.append("| ").append(number(level.pending())).append(" | ")
                    .append(fixed(level.off().serverMs().p99(), 0)).append(" / ")
                    .append(fixed(level.off().serverMs().max(), 0)).append(" ms | ")
                    .append(fixed(level.on().serverMs().p99(), 0)).append(" / ")
                    .append(fixed(level.on().serverMs().max(), 0)).append(" ms | ")
                    .append(fixed(level.p99Ratio(), 2)).append(" (").append(fixed(level.offHalves(), 2)).append(")")
                    .append(" | ").append(load(load)).append(" | ")
                    .append(estimations(load)).append(" | ").append(fixed(level.refresh().ms().p50(), 0))
                    .append(" / ").append(fixed(level.refresh().ms().p99(), 0)).append(" / ")
                    .append(fixed(level.refresh().ms().max(), 0)).append(" ms over ")
                    .append(level.refresh().releases())
                    .append(level.refresh().timedOut() == 0 ? "" : ", " + level.refresh().timedOut()
                            + " not within " + EstimatesParts.GIVE_UP.toSeconds() + " s")
                    .append(" |\n");
        }
        EstimatesParts.Bursts bursts = r.bursts();
        for (EstimatesParts.Burst burst : List.of(bursts.off(), bursts.on())) {
            boolean on = burst == bursts.on();
            md.append("| right after a burst of ").append(number(burst.batches().jobs())).append(" onto ")
                    .append(number(burst.pendingBefore())).append(" (estimates ").append(on ? "on" : "off")
                    .append(", ").append(fixed(burst.batches().jobsPerSecond(), 0)).append(" jobs/s) | ")
                    .append(on ? "" : fixed(burst.chain().serverMs().p99(), 0) + " / "
                            + fixed(burst.chain().serverMs().max(), 0) + " ms").append(" | ")
                    .append(on ? fixed(burst.chain().serverMs().p99(), 0) + " / "
                            + fixed(burst.chain().serverMs().max(), 0) + " ms" : "").append(" | ")
                    .append(on ? fixed(bursts.p99Ratio(), 2) : "").append(" | ").append(load(burst.load()))
                    .append(" | ").append(estimations(burst.load())).append(" | |\n");
        }
    }

    private static String load(EstimatesParts.Load load) {
        return fixed(100 * load.busyShare(), 1) + " % / " + fixed(100 * load.cpuShare(), 1) + " %";
    }

    private static String estimations(EstimatesParts.Load load) {
        return load.changes() + " (" + fixed(load.changesMeanMs(), 0) + " ms), " + load.full() + " ("
                + fixed(load.fullMeanMs(), 0) + " ms); aside " + fixed(load.asideMeanMs(), 0) + " ms";
    }

    /** Estimated starts on the default policy's replay: shown, the forecast alone, the naive estimate. */
    private static void estimates(StringBuilder md, EstimateReport e) {
        md.append("\nEstimated starts (`").append(e.policy()).append("`): ").append(e.jobsEstimated())
                .append(". Runs known: ").append(e.runs()).append("; later submissions: ").append(e.arrivals())
                .append("; ").append(e.samples()).append(" samples per forecast; calibration at the end: ")
                .append(e.calibration()).append(". The issue's target: coverage ≥ 0.8 and median relative error ≤ 0.35.\n\n")
                .append("| estimate | jobs | p10–p90 coverage | median relative error | median bias |\n")
                .append("| --- | ---: | ---: | ---: | ---: |\n");
        estimateRow(md, "shown: forecast, interval calibrated", e.jobs(), e.intervalCoverage(),
                e.medianRelativeError(), e.medianBias());
        estimateRow(md, "forecast alone", e.jobs(), e.forecast().intervalCoverage(),
                e.forecast().medianRelativeError(), e.forecast().medianBias());
        estimateRow(md, "naive (Slurm-like)", e.jobs(), e.baseline().intervalCoverage(),
                e.baseline().medianRelativeError(), e.baseline().medianBias());
        md.append("\nBy wait (coverage / median relative error):\n\n| waited | jobs | shown | forecast alone | naive |\n")
                .append("| --- | ---: | ---: | ---: | ---: |\n");
        for (EstimateReport.Band b : e.byWait()) {
            md.append("| ").append(b.waited()).append(" | ").append(b.jobs()).append(" | ")
                    .append(fixed(b.intervalCoverage(), 2)).append(" / ").append(fixed(b.medianRelativeError(), 2))
                    .append(" | ").append(fixed(b.forecastCoverage(), 2)).append(" / ")
                    .append(fixed(b.forecastError(), 2)).append(" | ").append(fixed(b.naiveCoverage(), 2))
                    .append(" / ").append(fixed(b.naiveError(), 2)).append(" |\n");
        }
        md.append("\nThe naive estimate: ").append(e.baseline().method()).append(". Median bias is the median of")
                .append(" (p50 − wait) ÷ wait: below 0, too early. Jobs with no start in the forecast's horizon: ")
                .append(e.noEstimate()).append(". Cost: ").append(number(e.forecasts())).append(" forecasts in ")
                .append(String.format(Locale.ROOT, "%.1f s", e.forecastMillis() / 1000.0)).append(" (")
                .append(e.forecasts() == 0 ? "–" : String.format(Locale.ROOT, "%.0f ms",
                        (double) e.forecastMillis() / e.forecasts())).append(" each), ")
                .append(number(e.passes())).append(" queue passes.\n");
    }

    private static void estimateRow(StringBuilder md, String name, int jobs, double coverage, double error,
                                    double bias) {
        md.append("| ").append(name).append(" | ").append(jobs).append(" | ").append(fixed(coverage, 3))
                .append(" | ").append(fixed(error, 3)).append(" | ")
                .append(String.format(Locale.ROOT, "%+.3f", bias)).append(" |\n");
    }

    private static String fixed(double value, int decimals) {
        return String.format(Locale.ROOT, "%,." + decimals + "f", value);
    }

    /** The goals that compare teams, judged over the fleet and the fleets one instance away. */
    static String nearby(NearbyFleets n, Machine machine, String command) {
        var md = new StringBuilder();
        header(md, "Trace replay on nearby fleets", machine, command);
        md.append("The same trace replayed on ").append(n.fleets().size()).append(" fleets: ")
                .append(String.join("; ", n.fleets())).append(". Per team, its mean wait averaged over the fleets under `")
                .append(Goals.POLICY).append("` (guarantees lent) and `").append(Goals.WITHOUT_SHARING)
                .append("` (hard quotas); worse off: the averaged wait shared exceeds the averaged wait with hard quotas by"
                        + " more than the larger of 5 % and 2 min; beside it, in how many of the fleets one replay alone"
                        + " calls the team worse off. ± is the standard error of the averaged change, as if the"
                        + " replays were draws of the same chance.\n\n");
        md.append("| team | mean wait shared | mean wait, hard quotas | change | worse off over the fleets |"
                + " change in one replay: least, most | worse off in one replay |\n"
                + "| --- | ---: | ---: | ---: | --- | --- | ---: |\n");
        n.shared().forEach((team, shared) -> {
            double hard = n.hard().getOrDefault(team, 0.0);
            md.append("| ").append(team).append(" | ").append(duration(shared)).append(" | ").append(duration(hard))
                    .append(" | ").append(hard == 0 ? "" : String.format(Locale.ROOT, "%+.1f %% ± %.1f %%",
                            100 * (shared / hard - 1), 100 * n.standardErrors().getOrDefault(team, Double.NaN) / hard))
                    .append(" | ").append(n.worseOff().contains(team) ? "**yes**" : "no").append(" | ")
                    .append(spread(n.changes().getOrDefault(team, List.of()))).append(" | ")
                    .append(n.worseOffIn().getOrDefault(team, 0)).append(" of ").append(n.fleets().size()).append(" |\n");
        });
        md.append("\nTeams worse off over the fleets: ").append(n.worseOff().isEmpty() ? "none"
                : "**" + String.join(", ", n.worseOff()) + "**").append(". Jain's index over per-team mean slowdown,"
                + " averaged over the fleets: ").append(fixed(n.fairnessShared(), 3)).append(" shared, ")
                .append(fixed(n.fairnessHard(), 3)).append(" with hard quotas")
                .append(n.fairnessScript() == null ? "" : ", " + fixed(n.fairnessScript(), 3)
                        + " for the better polling script").append(".\n");
        return md.toString();
    }

    /** The least and the most of a team's changes over the fleets, the fleets where it did not wait left out. */
    private static String spread(List<Double> changes) {
        var summary = changes.stream().filter(c -> !c.isNaN()).mapToDouble(Double::doubleValue).summaryStatistics();
        return summary.getCount() == 0 ? "" : String.format(Locale.ROOT, "%+.1f %%, %+.1f %%", 100 * summary.getMin(),
                100 * summary.getMax());
    }

    private static void header(StringBuilder md, String what, Machine machine, String command) {
        md.append("_").append(what).append(", measured ").append(machine.date()).append(" with `").append(command)
                .append("` on ").append(machine.cores()).append(" cores, ").append(machine.memory()).append(" (")
                .append(machine.cpu()).append("), ").append(machine.os()).append("; `java -version`: ")
                .append(machine.javaVersion()).append("; load average (1, 5, 15 min) ").append(machine.loadAtStart())
                .append(" at the start and ").append(Machine.load()).append(" at the end._\n\n");
    }

    static String duration(double seconds) {
        if (seconds < 120) {
            return String.format(Locale.ROOT, "%.0f s", seconds);
        }
        if (seconds < 2 * 3600) {
            return String.format(Locale.ROOT, "%.1f min", seconds / 60);
        }
        if (seconds < 2 * 86_400) {
            return String.format(Locale.ROOT, "%.1f h", seconds / 3600);
        }
        return String.format(Locale.ROOT, "%.1f d", seconds / 86_400);
    }

    private static String percent(double share) {
        return String.format(Locale.ROOT, "%.1f%%", 100 * share);
    }

    private static String count(long value) {
        return String.format(Locale.ROOT, "%,d", value);
    }

    private static String number(double value) {
        return value >= 100 ? String.format(Locale.ROOT, "%,.0f", value) : String.format(Locale.ROOT, "%.2f", value);
    }

    private static String bytes(double bytes) {
        if (Double.isNaN(bytes)) {
            return "";
        }
        return bytes < 10_000 ? String.format(Locale.ROOT, "%,.0f B", bytes)
                : String.format(Locale.ROOT, "%.1f MB", bytes / 1_000_000);
    }

    private static String perOperation(double opsPerSecond) {
        double ns = 1e9 / opsPerSecond;
        return ns < 1_000 ? String.format(Locale.ROOT, "%.0f ns", ns)
                : ns < 1_000_000 ? String.format(Locale.ROOT, "%.1f µs", ns / 1_000)
                : String.format(Locale.ROOT, "%.2f ms", ns / 1_000_000);
    }

    /** Submissions and wake-up latency without webhooks and with 100 to a receiver that never answers, per round. */
    static String webhooks(ServiceBench.WebhookComparison r, Machine machine, String command) {
        var t = new StringBuilder();
        t.append("Machine: ").append(machine.cores()).append(" cores, ").append(machine.cpu()).append(", Java ")
                .append(machine.javaVersion()).append(", ").append(machine.date()).append("; load average (1, 5, 15 min)")
                .append(" at start ").append(r.loadAtStart()).append(", at end ").append(r.loadAtEnd())
                .append(". Command: `").append(command).append("`.\n\n");
        t.append("| round | | without webhooks | with ").append(r.hooks())
                .append(" webhooks (receiver never answers) | change |\n");
        t.append("| --- | --- | --- | --- | --- |\n");
        int n = 0;
        for (ServiceBench.WebhookRound round : r.rounds()) {
            String at = Integer.toString(++n);
            row(t, at, "submissions/s (" + round.without().clients() + " clients, " + round.without().count() + ")",
                    round.without().perSecond(), round.with().perSecond(), "%.0f");
            row(t, at, "submission latency p50 / p99 (ms)", round.without().latencyMs().p50(),
                    round.with().latencyMs().p50(), "%.1f");
            row(t, at, "", round.without().latencyMs().p99(), round.with().latencyMs().p99(), "%.1f");
            row(t, at, "wake-up mean / p50 / p99 / max, release → next STARTING (ms, " + r.releases() + " releases)",
                    round.wakeUpWithout().serverMs().mean(), round.wakeUpWith().serverMs().mean(), "%.1f");
            row(t, at, "", round.wakeUpWithout().serverMs().p50(), round.wakeUpWith().serverMs().p50(), "%.1f");
            row(t, at, "", round.wakeUpWithout().serverMs().p99(), round.wakeUpWith().serverMs().p99(), "%.1f");
            row(t, at, "", round.wakeUpWithout().serverMs().max(), round.wakeUpWith().serverMs().max(), "%.1f");
        }
        t.append("\nWith the webhooks, per round: ");
        n = 0;
        for (ServiceBench.WebhookRound round : r.rounds()) {
            t.append(n++ == 0 ? "" : "; ").append(round.eventsWritten()).append(" outbox events, ")
                    .append(round.deliveriesMade()).append(" deliveries, ").append(round.attemptsMade())
                    .append(" attempts (each held a delivery thread for the 10 s timeout)");
        }
        t.append(". The hooks and their deliveries are deleted between rounds.\n");
        return t.toString();
    }

    private static void row(StringBuilder t, String round, String what, double without, double with, String format) {
        double change = without == 0 ? 0 : (with - without) / without * 100;
        t.append("| ").append(round).append(" | ").append(what).append(" | ").append(String.format(format, without))
                .append(" | ").append(String.format(format, with)).append(" | ")
                .append(String.format("%+.0f %%", change)).append(" |\n");
    }
}
