package io.spillover.placement;

import java.time.Instant;
import java.util.Objects;
import java.util.Set;

/** What placement needs to know of a training plan; its capacity is the offering {@link #offering()}. */
public record PlanState(String name, String instanceType, String region, PlanStatus status,
                        Instant startTime, Instant endTime, Set<String> teams) {

    public PlanState {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(instanceType, "instanceType");
        Objects.requireNonNull(region, "region");
        Objects.requireNonNull(status, "status");
        teams = Set.copyOf(teams);
    }

    public OfferingKey offering() {
        return OfferingKey.plan(region, instanceType, name);
    }

    public boolean visibleTo(String team) {
        return teams.contains(team);
    }
}
