package io.spillover.security;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Who is making a request, with everything access decisions need.
 *
 * @param name        the user name, or {@code token:<id>} for an API token
 * @param memberships the caller's role per team
 */
public record Caller(String name, boolean platformAdmin, Map<String, TeamRole> memberships) {

    public Caller {
        Objects.requireNonNull(name, "name");
        memberships = Map.copyOf(memberships);
    }

    public Optional<TeamRole> roleIn(String team) {
        return Optional.ofNullable(memberships.get(team));
    }

    /** Whether the caller may see the team at all: a member of it, or a platform admin. */
    public boolean sees(String team) {
        return platformAdmin || memberships.containsKey(team);
    }

    public boolean has(String team, TeamRole needed) {
        return platformAdmin || roleIn(team).map(role -> role.covers(needed)).orElse(false);
    }
}
