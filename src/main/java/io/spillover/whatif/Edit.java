package io.spillover.whatif;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import java.util.List;
import java.util.Map;

/**
 * One edit of the live configuration that a what-if run's change makes, named by its {@code kind}. Edits apply in
 * order, each checked against the configuration as the edits before it left it ({@link Changes}).
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "kind")
@JsonSubTypes({
        @JsonSubTypes.Type(value = Edit.OfferingCapacity.class, name = "offering-capacity"),
        @JsonSubTypes.Type(value = Edit.AddPlan.class, name = "add-plan"),
        @JsonSubTypes.Type(value = Edit.RemovePlan.class, name = "remove-plan"),
        @JsonSubTypes.Type(value = Edit.Team.class, name = "team"),
        @JsonSubTypes.Type(value = Edit.Queue.class, name = "queue-policy")})
public sealed interface Edit {

    /**
     * An offering's capacity up or down: {@code instances} in all.
     *
     * @param source {@code on-demand} (the default) or {@code plan:<name>}
     */
    record OfferingCapacity(String region, String instanceType, String source, Integer instances) implements Edit {
    }

    /**
     * A training plan added, ACTIVE for the whole replay, for the teams named.
     *
     * @param region null for the fleet's first region
     */
    record AddPlan(String name, String instanceType, String region, Integer instances, List<String> teams)
            implements Edit {
    }

    /** A training plan removed: entries naming it no longer fit. */
    record RemovePlan(String name) implements Edit {
    }

    /**
     * A team's weight or quota; each field left out stays as it is.
     *
     * @param instanceLimits instances allowed per type, merged into the team's quota (0 takes a type away)
     */
    record Team(String team, Integer weight, Map<String, Integer> instanceLimits, Integer maxAccelerators,
                     Integer maxConcurrentJobs) implements Edit {
    }

    /**
     * The queue policy's settings ({@code spillover.queue}); each field left out stays as it is.
     *
     * @param holds     false: no job holds instances; true: jobs of several instances hold after
     *                  {@code holdAfterSeconds}
     * @param firstFit  true: the queue as first built, whatever the rest says
     * @param precedenceLapse the response ratio at which a job stops yielding its fallbacks to jobs that list them
     *                  earlier ({@code spillover.queue.precedence-lapse}); 0 never
     * @param holdAfterRun true: a job holds only once it has also waited as long as its expected run; false: on age
     *                  alone ({@code spillover.queue.hold-after-run})
     */
    record Queue(Boolean precedence, Long fallbackAfterSeconds, Boolean fairShare, Long shareDecaySeconds,
                       Boolean shortestFirst, Boolean holds, Long holdAfterSeconds, Boolean firstFit,
                       Double precedenceLapse, Boolean holdAfterRun) implements Edit {
    }
}
