package io.spillover.placement;

import io.spillover.catalog.JobKind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * How long a pending job is expected to run, from what is known before it runs: never its own run, which has
 * not happened. The queue policy ranks jobs by it ({@link QueuePolicy#shortestFirst}) and fair share charges a
 * start with it.
 *
 * <p>The best witness of a job's run is its <em>sweep</em>: the jobs its team submitted with the same profile (or
 * the same list) in one burst, each within {@link #SWEEP_GAP} of the one before, as a pipeline fans out the trials
 * of a hyper-parameter search. On the Philly trace the run times of consecutive jobs of such a burst correlate at
 * 0.8–0.9 (in log), while a team's profile holds one-minute trials and month-long runs alike. So once members of
 * the sweep have run, their runs speak for the rest: the median of the sweep's runs by Kaplan and Meier's
 * estimator, which counts a member still running as a run at least as long as it has gone so far. Until half of
 * the sweep's started members have ended that median is not known; the sweep's longest run so far is then
 * expected to last as long again, and its members at least that long. Without any run of the sweep, the job's
 * typical run stands: the median of its profile's, team's or platform's latest runs.
 *
 * <p>A job's own maximum run time bounds all of this: it cannot run longer. Without any other knowledge it is
 * the estimate itself, as its user's word on this job; a hint of its expected run ({@code expectedRuntimeSeconds}),
 * when given, is that word instead, and bounds nothing.
 */
public final class ExpectedRuns {

    /** Submissions this close after the one before, of the same team and profile or list, join its sweep. */
    public static final Duration SWEEP_GAP = Duration.ofMinutes(5);

    /** How many of a sweep's latest started members its estimate reads. */
    public static final int SWEEP_RUNS = 100;

    private ExpectedRuns() {
    }

    /**
     * What is known of a sweep now.
     *
     * @param ended   the runs of its members that completed
     * @param running how long each member running now has run so far
     */
    public record Sweep(List<Duration> ended, List<Duration> running) {

        public static final Sweep NONE = new Sweep(List.of(), List.of());

        public Sweep {
            ended = List.copyOf(ended);
            running = List.copyOf(running);
        }

        public boolean isEmpty() {
            return ended.isEmpty() && running.isEmpty();
        }

        /**
         * The median run by Kaplan–Meier, running members counting as runs at least as long as so far; null while
         * fewer than half of the started members have ended before the others' times.
         */
        public Duration median() {
            record Observation(Duration time, boolean ended) {
            }
            var observations = new ArrayList<Observation>(ended.size() + running.size());
            ended.forEach(d -> observations.add(new Observation(d, true)));
            running.forEach(d -> observations.add(new Observation(d, false)));
            // at equal times an end comes before a member still running: it was at risk until then
            observations.sort(Comparator.comparing(Observation::time).thenComparing(o -> !o.ended()));
            double surviving = 1;
            int atRisk = observations.size();
            for (Observation observation : observations) {
                if (observation.ended()) {
                    surviving *= 1 - 1.0 / atRisk;
                    if (surviving <= 0.5) {
                        return observation.time();
                    }
                }
                atRisk--;
            }
            return null;
        }

        /** The longest run of the sweep so far, ended or going on; null for none. */
        public Duration longest() {
            return Stream.concat(ended.stream(), running.stream()).max(Comparator.naturalOrder()).orElse(null);
        }

        /** In words, for a job's reasons and estimates: "3 ran, median 52 min; 2 running, longest 1 h 10 min". */
        public String describe() {
            var parts = new ArrayList<String>(2);
            if (!ended.isEmpty()) {
                Duration median = median();
                parts.add(ended.size() + " ended" + (median == null ? "" : ", median " + QueuePass.words(median)));
            }
            if (!running.isEmpty()) {
                parts.add(running.size() + " running, longest " + QueuePass.words(
                        running.stream().max(Comparator.naturalOrder()).orElseThrow()) + " so far");
            }
            return String.join("; ", parts);
        }
    }

    /**
     * @param maxRuntime the job's own maximum run time, null for none
     * @param sweep      what is known of the job's sweep, {@link Sweep#NONE} for nothing
     * @param typical    the median of the job's profile's, team's or platform's latest runs, null for none
     * @return the expected run, null when nothing at all is known
     */
    public static Duration expected(Duration maxRuntime, Sweep sweep, Duration typical) {
        return expected(maxRuntime, null, sweep, typical);
    }

    /**
     * As {@link #expected(Duration, Sweep, Duration)}, with the run its user expects ({@code expectedRuntimeSeconds}):
     * a hint stands where the maximum run time would (the user's word on this job, closer to the run than a limit
     * padded for safety), but unlike it bounds nothing; the maximum run time still does.
     *
     * @param hint how long the job's user expects it to run, null for none
     */
    public static Duration expected(Duration maxRuntime, Duration hint, Sweep sweep, Duration typical) {
        Objects.requireNonNull(sweep, "sweep");
        Duration known = hint != null ? hint : maxRuntime != null ? maxRuntime : typical;
        Duration estimate;
        if (sweep.isEmpty()) {
            estimate = known;
        } else {
            Duration median = sweep.median();
            if (median != null) {
                estimate = median;
            } else {
                Duration asLongAgain = sweep.longest().multipliedBy(2);
                estimate = known == null || asLongAgain.compareTo(known) > 0 ? asLongAgain : known;
            }
        }
        if (estimate != null && maxRuntime != null && estimate.compareTo(maxRuntime) > 0) {
            estimate = maxRuntime;
        }
        if (estimate == null) {
            return null;
        }
        return estimate.compareTo(Duration.ofSeconds(1)) < 0 ? Duration.ofSeconds(1) : estimate;
    }

    /**
     * What makes two submissions of a team members of one sweep, beside their times: the profile they came from,
     * or for jobs with a list of their own, its kind and entries.
     */
    public static String sweepKey(String profile, JobKind kind, PreferenceList preferences) {
        if (profile != null) {
            return "profile:" + profile;
        }
        return "list:" + kind + ":" + preferences.entries().stream()
                .map(e -> e.instanceCount() + "x" + e.instanceType() + "@" + e.region()
                        + (e.trainingPlan() == null ? "" : "+" + e.trainingPlan()))
                .collect(Collectors.joining(","));
    }
}
