package io.spillover.security;

import java.util.Map;

/** A person as the admin API shows them; never their password. */
public record UserView(String username, String displayName, boolean platformAdmin, boolean disabled,
                       Map<String, TeamRole> memberships) {
}
