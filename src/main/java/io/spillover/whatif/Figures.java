package io.spillover.whatif;

import io.spillover.placement.OfferingKey;
import io.spillover.replay.Fleet;
import io.spillover.replay.JobRun;
import io.spillover.replay.PolicyReport;
import io.spillover.replay.PolicyRun;
import io.spillover.replay.ReplayJob;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What one side of a what-if run came to: waits (start − submit, in seconds) over every job, per team and per
 * offering the jobs started on, plan use, and the waits' distribution as CDF points.
 *
 * @param neverStarted       jobs that had not started when every other had ended: they would wait for ever
 * @param firstChoiceShare   share of started jobs that started on their first entry
 * @param planUtilization    busy share of the plans' instances over the replay, plans together
 * @param plans              each plan's busy share of its instances over the replay
 * @param waitCdf            the share of all jobs (those never started included) that started within each wait
 */
public record Figures(int jobs, int started, int neverStarted, Wait waits, double firstChoiceShare,
                      double meanRunSeconds, List<Group> byTeam, List<Group> byOffering, double planUtilization,
                      Map<String, Double> plans, List<Point> waitCdf) {

    /** At most this many points per CDF: enough for a chart, small to store. */
    static final int CDF_POINTS = 200;

    /** Mean and nearest-rank percentiles of waits, in seconds; zeros when nothing started. */
    public record Wait(double mean, long p50, long p95, long p99, long max) {

        static Wait of(long[] waits) {
            PolicyReport.Distribution d = PolicyReport.Distribution.of(waits);
            return new Wait(d.mean(), d.p50(), d.p95(), d.p99(), d.max());
        }
    }

    /** A team's jobs, or those that started on one offering: how many, and how long the started ones waited. */
    public record Group(String name, int jobs, int started, Wait waits) {
    }

    /** {@code share} of all jobs started within {@code waitSeconds}. */
    public record Point(long waitSeconds, double share) {
    }

    static Figures of(PolicyRun run, Fleet fleet) {
        PolicyReport report = PolicyReport.of(run, fleet, 0);
        int jobs = run.runs().size() + run.neverStarted().size();
        var byTeam = new TreeMap<String, List<Long>>();
        var jobsByTeam = new TreeMap<String, Integer>();
        var byOffering = new LinkedHashMap<OfferingKey, List<Long>>();
        for (JobRun r : run.runs()) {
            byTeam.computeIfAbsent(r.job().team(), t -> new ArrayList<>()).add(r.waitSeconds());
            jobsByTeam.merge(r.job().team(), 1, Integer::sum);
            byOffering.computeIfAbsent(r.entry().offering(), o -> new ArrayList<>()).add(r.waitSeconds());
        }
        for (ReplayJob waiting : run.neverStarted()) {
            jobsByTeam.merge(waiting.team(), 1, Integer::sum);
            byTeam.computeIfAbsent(waiting.team(), t -> new ArrayList<>());
        }
        var teams = new ArrayList<Group>();
        byTeam.forEach((team, waits) -> teams.add(new Group(team, jobsByTeam.get(team), waits.size(),
                Wait.of(longs(waits)))));
        var offerings = new ArrayList<Group>();
        byOffering.entrySet().stream()
                .sorted(Map.Entry.comparingByKey(java.util.Comparator.comparing(OfferingKey::describe)))
                .forEach(e -> offerings.add(new Group(e.getKey().describe(), e.getValue().size(), e.getValue().size(),
                        Wait.of(longs(e.getValue())))));
        var plans = new TreeMap<String, Double>();
        fleet.plans().forEach(plan -> plans.put(plan.name(),
                report.utilizationByOffering().getOrDefault(plan.offering().describe(), 0.0)));
        long[] waits = run.runs().stream().mapToLong(JobRun::waitSeconds).toArray();
        return new Figures(jobs, run.runs().size(), run.neverStarted().size(), Wait.of(waits),
                report.firstChoiceShare(), report.meanRunSeconds(), teams, offerings, report.planUtilization(), plans,
                cdf(waits, jobs));
    }

    /**
     * The step points of the waits' distribution: at each distinct wait, the share of all {@code jobs} that started
     * within it, beginning at a wait of 0; over {@link #CDF_POINTS} distinct waits, at evenly spaced ranks.
     */
    static List<Point> cdf(long[] waits, int jobs) {
        if (waits.length == 0 || jobs == 0) {
            return List.of();
        }
        long[] sorted = waits.clone();
        Arrays.sort(sorted);
        var points = new ArrayList<Point>();
        if (sorted[0] > 0) {
            points.add(new Point(0, 0));
        }
        int distinct = (int) Arrays.stream(sorted).distinct().count();
        int step = Math.max(1, (int) Math.ceil((double) distinct / CDF_POINTS));
        int seen = 0;
        for (int i = 0; i < sorted.length; i++) {
            boolean lastOfValue = i == sorted.length - 1 || sorted[i + 1] != sorted[i];
            if (lastOfValue) {
                seen++;
                if (seen % step == 0 || i == sorted.length - 1) {
                    points.add(new Point(sorted[i], (double) (i + 1) / jobs));
                }
            }
        }
        return points;
    }

    private static long[] longs(List<Long> values) {
        return values.stream().mapToLong(Long::longValue).toArray();
    }
}
