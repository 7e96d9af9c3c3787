package io.spillover.replay;

import io.spillover.catalog.JobKind;
import io.spillover.placement.PlacementRequest;
import io.spillover.placement.PreferenceEntry;
import io.spillover.placement.PreferenceList;
import io.spillover.placement.QueuedRequest;
import java.util.List;

/**
 * A trace job ready to replay: every place it may run, first choice first, with the instance count each
 * needs. Each policy asks for a part of this list, so all policies replay the same jobs.
 *
 * @param rank the job's position in submission order; breaks ties between simultaneous polling tries
 */
public record ReplayJob(TraceJob trace, int rank, List<PreferenceEntry> choices) {

    public ReplayJob {
        choices = List.copyOf(choices);
        if (choices.isEmpty() || choices.size() > PreferenceList.MAX_ENTRIES) {
            throw new IllegalArgumentException(trace.id() + " needs 1 to 5 choices");
        }
    }

    public String id() {
        return trace.id();
    }

    public String team() {
        return trace.team();
    }

    /**
     * The profile its user would submit it with. A trace carries no profile; the replay takes a team's jobs of
     * one GPU count as one profile, as a team keeps a profile per job size (in Philly a team's run times differ
     * by GPU count far more than by Gavel's sampled model type, which the replay does not use).
     */
    public String profile() {
        return trace.gpus() + "-gpu";
    }

    /** What the job asks for under a policy: its whole list, or only its first choice. */
    public PreferenceList preferences(Policy policy) {
        return policy instanceof Policy.SingleType ? only(0) : new PreferenceList(choices);
    }

    /** A single-type request for one of its choices, as a retry script submits it. */
    public PreferenceList only(int choice) {
        return new PreferenceList(List.of(choices.get(choice)));
    }

    /** The job in Spillover's queue: every job has priority 0, so queue order is submission time, then id. */
    public QueuedRequest<String> queued(PreferenceList preferences) {
        return queued(preferences, null);
    }

    /** @param expectedRuntime what the service would expect of the job at its submission, null for nothing */
    public QueuedRequest<String> queued(PreferenceList preferences, java.time.Duration expectedRuntime) {
        return new QueuedRequest<>(id(), new PlacementRequest(team(), JobKind.TRAINING, preferences), 0,
                VirtualTime.at(trace.submitSeconds()), null, expectedRuntime);
    }
}
