package io.spillover.replay;

import io.spillover.placement.OfferingKey;
import io.spillover.placement.PreferenceEntry;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The figures of one policy's replay. Times are virtual seconds; utilizations are busy instance-seconds over
 * available instance-seconds.
 *
 * @param queueingDelay                    start − submit, over started jobs
 * @param firstChoiceShare                 share of started jobs that started on their first choice
 * @param startsByChoice                   started jobs per position in their list of choices
 * @param meanCompletionSeconds            mean of end − submit: the wait plus the run time on the type it got
 * @param makespanSeconds                  first submission to last job end
 * @param fleetUtilization                 over every offering (on demand and plans) and the makespan
 * @param fleetUtilizationUntilLastArrival the same, from the first to the last submission only, where the
 *                                         long tail of the last jobs does not dilute it
 * @param planUtilization                  over the training plans' instances and the makespan
 * @param slowdownByTeam                   per team, the mean over its started jobs of (wait + run) / run
 * @param fairness                         Jain's index over the teams' mean slowdowns: 1 when every team's jobs
 *                                         are slowed alike, 1 / teams when one team takes all the slowdown
 * @param pastMaxPendingTime               started jobs that waited longer than the replay's maximum pending
 *                                         time (SPEC's default, 24 h): the service would have stopped them
 * @param planUtilizationWhileWaiting      busy share of the plans' instances while a job listing the plan
 *                                         waited
 * @param clientSubmissions                jobs submitted by clients: one per job in Spillover's queue; for a
 *                                         polling script every try, refused or not (wait / interval + 1 per job)
 * @param wallMillis                       real time the replay of this policy took
 * @param sharing                          what lending cost and what lenders waited, for a policy that shares
 */
public record PolicyReport(String policy, String description, int jobs, int started, int neverStarted,
                           Distribution queueingDelay, double firstChoiceShare, List<Integer> startsByChoice,
                           double meanRunSeconds, double meanCompletionSeconds, long makespanSeconds,
                           double fleetUtilization, double fleetUtilizationUntilLastArrival, double planUtilization,
                           Map<String, Double> utilizationByOffering, Map<String, Long> jobsByTeam,
                           Map<String, Double> meanWaitByTeamSeconds, Map<String, Double> slowdownByTeam,
                           double fairness, long pastMaxPendingTime, double planUtilizationWhileWaiting,
                           long clientSubmissions, long evaluations, long events, long wallMillis,
                           Sharing sharing) {

    /**
     * What lending did in one replay.
     *
     * @param borrowedStarts  attempts started beyond their team's guarantee
     * @param preemptions     placements a reclaim stopped
     * @param preemptedJobs   jobs stopped at least once
     * @param gpuHoursRun     GPU-hours held by every attempt, stopped ones included
     * @param gpuHoursLost    GPU-hours of work lost to preemption: runs since the last checkpoint, and restarts
     * @param claims          jobs that claimed instances borrowers held (they fitted within their team's guarantee once
     *                        those came back) and started
     * @param reclaimDelay    over those jobs, from the first claim to the start
     * @param preemptibleDelay the same over the jobs whose claims waited for preemptible borrowers only, never for a
     *                        bounded one to end
     */
    public record Sharing(long borrowedStarts, long preemptions, long preemptedJobs,
                          double gpuHoursRun, double gpuHoursLost, long claims, Distribution reclaimDelay,
                          Distribution preemptibleDelay) {

        public static final Sharing NONE = new Sharing(0, 0, 0, 0, 0, 0, Distribution.of(new long[0]),
                Distribution.of(new long[0]));

        /** GPU-hours lost over GPU-hours run. */
        public double lostShare() {
            return gpuHoursRun <= 0 ? 0 : gpuHoursLost / gpuHoursRun;
        }
    }

    public PolicyReport(String policy, String description, int jobs, int started, int neverStarted,
                        Distribution queueingDelay, double firstChoiceShare, List<Integer> startsByChoice,
                        double meanRunSeconds, double meanCompletionSeconds, long makespanSeconds,
                        double fleetUtilization, double fleetUtilizationUntilLastArrival, double planUtilization,
                        Map<String, Double> utilizationByOffering, Map<String, Long> jobsByTeam,
                        Map<String, Double> meanWaitByTeamSeconds, Map<String, Double> slowdownByTeam,
                        double fairness, long pastMaxPendingTime, double planUtilizationWhileWaiting,
                        long clientSubmissions, long evaluations, long events, long wallMillis) {
        this(policy, description, jobs, started, neverStarted, queueingDelay, firstChoiceShare, startsByChoice,
                meanRunSeconds, meanCompletionSeconds, makespanSeconds, fleetUtilization,
                fleetUtilizationUntilLastArrival, planUtilization, utilizationByOffering, jobsByTeam,
                meanWaitByTeamSeconds, slowdownByTeam, fairness, pastMaxPendingTime, planUtilizationWhileWaiting,
                clientSubmissions, evaluations, events, wallMillis, Sharing.NONE);
    }

    /** Mean and nearest-rank percentiles, in seconds. */
    public record Distribution(double mean, long p50, long p95, long p99, long max) {

        public static Distribution of(long[] values) {
            if (values.length == 0) {
                return new Distribution(0, 0, 0, 0, 0);
            }
            long[] sorted = values.clone();
            Arrays.sort(sorted);
            return new Distribution(Arrays.stream(sorted).average().orElse(0), rank(sorted, 0.50), rank(sorted, 0.95),
                    rank(sorted, 0.99), sorted[sorted.length - 1]);
        }

        private static long rank(long[] sorted, double p) {
            return sorted[Math.max(0, (int) Math.ceil(p * sorted.length) - 1)];
        }
    }

    /** SPEC §3.4.3's default maximum pending time. */
    static final long MAX_PENDING_SECONDS = 86_400;

    public static PolicyReport of(PolicyRun run, Fleet fleet, long wallMillis) {
        List<JobRun> runs = run.runs();
        int jobs = runs.size() + run.neverStarted().size();
        long first = Long.MAX_VALUE;
        long lastArrival = Long.MIN_VALUE;
        long lastEnd = Long.MIN_VALUE;
        for (JobRun r : runs) {
            first = Math.min(first, r.job().submitSeconds());
            lastArrival = Math.max(lastArrival, r.job().submitSeconds());
            lastEnd = Math.max(lastEnd, r.endSeconds());
        }
        for (ReplayJob waiting : run.neverStarted()) {
            first = Math.min(first, waiting.submitSeconds());
            lastArrival = Math.max(lastArrival, waiting.submitSeconds());
        }
        long makespan = runs.isEmpty() ? 0 : lastEnd - first;
        long arrivals = runs.isEmpty() ? 0 : lastArrival - first;

        var startsByChoice = new ArrayList<Integer>(List.of(0, 0, 0, 0, 0));
        var busyByOffering = new LinkedHashMap<OfferingKey, Double>();
        fleet.offerings().forEach(k -> busyByOffering.put(k, 0.0));
        double busy = 0;
        double busyInArrivals = 0;
        double planBusy = 0;
        double gpuSecondsRun = 0;
        double gpuSecondsLost = 0;
        for (JobRun r : runs) {
            gpuSecondsRun += gpus(r, fleet);
            gpuSecondsLost += lostGpuSeconds(r, fleet);
        }
        for (JobRun r : runs) {
            startsByChoice.set(r.choice(), startsByChoice.get(r.choice()) + 1);
            busy += r.busyInstanceSeconds();
            for (Segment segment : segments(r)) {
                busyByOffering.merge(segment.entry().offering(), segment.instanceSeconds(), Double::sum);
                long overlap = Math.max(0, Math.min(segment.end(), lastArrival) - Math.max(segment.start(), first));
                busyInArrivals += (double) segment.entry().instanceCount() * overlap;
                if (segment.entry().offering().isPlan()) {
                    planBusy += segment.instanceSeconds();
                }
            }
        }
        var byOffering = new LinkedHashMap<String, Double>();
        busyByOffering.forEach((k, b) -> byOffering.put(k.describe(), share(b, (double) fleet.total(k) * makespan)));
        Map<String, Long> jobsByTeam = new TreeMap<>(runs.stream().collect(Collectors.groupingBy(r -> r.job().team(),
                Collectors.counting())));
        Map<String, Double> byTeam = new TreeMap<>(runs.stream().collect(Collectors.groupingBy(r -> r.job().team(),
                Collectors.averagingLong(JobRun::waitSeconds))));

        Map<String, Double> slowdown = new TreeMap<>(runs.stream().collect(Collectors.groupingBy(r -> r.job().team(),
                Collectors.averagingDouble(JobRun::slowdown))));

        return new PolicyReport(run.policy().name(), run.policy().describe(), jobs, runs.size(),
                run.neverStarted().size(), Distribution.of(runs.stream().mapToLong(JobRun::waitSeconds).toArray()),
                share(startsByChoice.get(0), runs.size()), startsByChoice,
                runs.stream().mapToLong(JobRun::runSeconds).average().orElse(0),
                runs.stream().mapToLong(JobRun::completionSeconds).average().orElse(0), makespan,
                share(busy, (double) fleet.totalInstances() * makespan),
                share(busyInArrivals, (double) fleet.totalInstances() * arrivals),
                share(planBusy, (double) fleet.planInstances() * makespan), byOffering, jobsByTeam, byTeam,
                slowdown, jain(slowdown.values()),
                runs.stream().filter(r -> r.waitSeconds() > MAX_PENDING_SECONDS).count(),
                run.planUtilizationWhileWaiting(), submissions(run), run.evaluations(), run.events(), wallMillis,
                new Sharing(run.reclaims().borrowedStarts(), run.reclaims().preemptions(),
                        runs.stream().filter(r -> !r.preempted().isEmpty()).count(),
                        gpuSecondsRun / 3600, gpuSecondsLost / 3600,
                        run.reclaims().reclaimDelaySeconds().size(), Distribution.of(run.reclaims().reclaimDelaySeconds().stream().mapToLong(Long::longValue)
                                .toArray()), Distribution.of(run.reclaims().preemptibleDelaySeconds().stream()
                                .mapToLong(Long::longValue).toArray())));
    }

    /** One attempt of a run, where and when it held instances. */
    private record Segment(PreferenceEntry entry, long start, long end) {
        double instanceSeconds() {
            return (double) entry.instanceCount() * (end - start);
        }
    }

    private static List<Segment> segments(JobRun r) {
        var segments = new ArrayList<Segment>(r.preempted().size() + 1);
        r.preempted().forEach(a -> segments.add(new Segment(a.entry(), a.startSeconds(), a.endSeconds())));
        segments.add(new Segment(r.entry(), r.startSeconds(), r.endSeconds()));
        return segments;
    }

    private static double gpus(JobRun r, Fleet fleet) {
        double gpuSeconds = 0;
        for (Segment segment : segments(r)) {
            gpuSeconds += segment.instanceSeconds() * fleet.acceleratorsPerInstance(segment.entry().instanceType());
        }
        return gpuSeconds;
    }

    private static double lostGpuSeconds(JobRun r, Fleet fleet) {
        double lost = (double) r.entry().instanceCount() * r.restartSeconds()
                * fleet.acceleratorsPerInstance(r.entry().instanceType());
        for (JobRun.Attempt attempt : r.preempted()) {
            lost += (double) attempt.entry().instanceCount() * attempt.lostSeconds()
                    * fleet.acceleratorsPerInstance(attempt.entry().instanceType());
        }
        return lost;
    }

    /** A script's start is one of its tries, made every interval since submission, so it made wait / interval + 1. */
    private static long submissions(PolicyRun run) {
        if (run.policy() instanceof Policy.Polling polling) {
            return run.runs().stream().mapToLong(r -> r.waitSeconds() / polling.intervalSeconds() + 1).sum();
        }
        return run.runs().size() + run.neverStarted().size();
    }

    /** Jain's fairness index: (sum x)^2 / (n * sum x^2); 1 for no values. */
    static double jain(java.util.Collection<Double> values) {
        double sum = values.stream().mapToDouble(Double::doubleValue).sum();
        double squares = values.stream().mapToDouble(v -> v * v).sum();
        return squares == 0 ? 1 : sum * sum / (values.size() * squares);
    }

    private static double share(double part, double whole) {
        return whole <= 0 ? 0 : part / whole;
    }
}
