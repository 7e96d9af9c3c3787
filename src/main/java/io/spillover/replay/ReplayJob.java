package io.spillover.replay;

import io.spillover.catalog.JobKind;
import io.spillover.placement.PlacementRequest;
import io.spillover.placement.PreferenceEntry;
import io.spillover.placement.PreferenceList;
import io.spillover.placement.QueuedRequest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A job ready to replay: who submitted it when, every place it may run (first choice first, with the instance
 * count each needs), how long it runs on each instance type of its list, and what its user told the queue. Each
 * policy asks for a part of this list, so all policies replay the same jobs.
 *
 * @param submitSeconds  virtual time of submission, in seconds from the start of the replay
 * @param rank           the job's position in submission order; breaks ties between simultaneous polling tries
 * @param profile        the profile its user submitted it with, null for none (its sweep is then its list's)
 * @param runSeconds     how long it runs on each instance type of its list
 * @param maxRuntime     the job's own maximum run time, null for none: bounds the run the queue expects of it
 * @param fallbackAfter  the job's own patience for its earlier entries, null for the platform's
 * @param maxRuntimeHint the maximum run time its user is modelled to give, for the benchmark's hinted policy;
 *                       null for none
 * @param accelerators   the accelerators it asks for (a trace job's GPUs), for reports
 */
public record ReplayJob(String id, String team, long submitSeconds, int rank, int priority, JobKind kind,
                        String profile, List<PreferenceEntry> choices, Map<String, Long> runSeconds,
                        Duration maxRuntime, Duration fallbackAfter, Duration maxRuntimeHint, int accelerators) {

    public ReplayJob {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(team, "team");
        Objects.requireNonNull(kind, "kind");
        choices = List.copyOf(choices);
        runSeconds = Map.copyOf(runSeconds);
        if (choices.isEmpty() || choices.size() > PreferenceList.MAX_ENTRIES) {
            throw new IllegalArgumentException(id + " needs 1 to 5 choices");
        }
        if (submitSeconds < 0) {
            throw new IllegalArgumentException(id + " is submitted before the replay begins");
        }
        for (PreferenceEntry choice : choices) {
            Long run = runSeconds.get(choice.instanceType());
            if (run == null || run < 1) {
                throw new IllegalArgumentException(id + " needs a run of at least 1 s on " + choice.instanceType());
            }
        }
    }

    /** A trace job with its list: no priority, profile by GPU count (see {@link #traceProfile}), no patience. */
    public static ReplayJob ofTrace(TraceJob trace, int rank, List<PreferenceEntry> choices,
                                    Map<String, Long> runSeconds, Duration maxRuntimeHint) {
        return new ReplayJob(trace.id(), trace.team(), trace.submitSeconds(), rank, 0, JobKind.TRAINING,
                traceProfile(trace), choices, runSeconds, null, null, maxRuntimeHint, trace.gpus());
    }

    /**
     * The profile a trace job's user would submit it with. A trace carries no profile; the replay takes a team's
     * jobs of one GPU count as one profile, as a team keeps a profile per job size (in Philly a team's run times
     * differ by GPU count far more than by Gavel's sampled model type, which the replay does not use).
     */
    static String traceProfile(TraceJob trace) {
        return trace.gpus() + "-gpu";
    }

    /** How long it runs on the type, which its list must name. */
    public long runSeconds(String instanceType) {
        Long run = runSeconds.get(instanceType);
        if (run == null) {
            throw new IllegalArgumentException(id + " does not list " + instanceType);
        }
        return run;
    }

    /** The same job asking for another list, of types whose runs it knows. */
    public ReplayJob withChoices(List<PreferenceEntry> newChoices) {
        return new ReplayJob(id, team, submitSeconds, rank, priority, kind, profile, newChoices, runSeconds, maxRuntime,
                fallbackAfter, maxRuntimeHint, accelerators);
    }

    /** What the job asks for under a policy: its whole list, or only its first choice. */
    public PreferenceList preferences(Policy policy) {
        return policy instanceof Policy.SingleType ? only(0) : new PreferenceList(choices);
    }

    /** A single-type request for one of its choices, as a retry script submits it. */
    public PreferenceList only(int choice) {
        return new PreferenceList(List.of(choices.get(choice)));
    }

    /** The job in Spillover's queue, ordered by priority, then submission time, then id. */
    public QueuedRequest<String> queued(PreferenceList preferences) {
        return queued(preferences, null);
    }

    /** @param expectedRuntime what the service would expect of the job at this moment, null for nothing */
    public QueuedRequest<String> queued(PreferenceList preferences, Duration expectedRuntime) {
        return new QueuedRequest<>(id, new PlacementRequest(team, kind, preferences), priority,
                VirtualTime.at(submitSeconds), fallbackAfter, expectedRuntime);
    }
}
