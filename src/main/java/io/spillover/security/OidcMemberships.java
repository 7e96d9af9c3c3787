package io.spillover.security;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.security.oauth2.client.oidc.userinfo.OidcUserRequest;
import org.springframework.security.oauth2.client.oidc.userinfo.OidcUserService;
import org.springframework.security.oauth2.core.oidc.user.DefaultOidcUser;
import org.springframework.security.oauth2.core.oidc.user.OidcUser;
import org.springframework.stereotype.Component;

/**
 * OpenID Connect sign-in, on when a client registration is configured
 * ({@code spring.security.oauth2.client.registration.*}). The person's team memberships come from a claim
 * ({@code spillover.oidc.teams-claim}, default {@code groups}) whose values name teams: {@code vision} for
 * a member, {@code vision:admin} for a team admin. Teams that do not exist are ignored.
 */
@Component
class OidcMemberships extends OidcUserService {

    private final UserService users;
    private final String teamsClaim;
    private final String usernameClaim;

    OidcMemberships(UserService users, @Value("${spillover.oidc.teams-claim:groups}") String teamsClaim,
                    @Value("${spillover.oidc.username-claim:preferred_username}") String usernameClaim) {
        this.users = users;
        this.teamsClaim = teamsClaim;
        this.usernameClaim = usernameClaim;
    }

    @Override
    public OidcUser loadUser(OidcUserRequest request) {
        OidcUser external = super.loadUser(request);
        String username = String.valueOf(external.getClaims().getOrDefault(usernameClaim, external.getSubject()))
                .toLowerCase();
        String displayName = external.getFullName() != null ? external.getFullName() : username;
        users.adoptExternal(username, displayName, memberships(external.getClaims().get(teamsClaim)));
        return new DefaultOidcUser(external.getAuthorities(), external.getIdToken(), external.getUserInfo(),
                external.getClaims().containsKey(usernameClaim) ? usernameClaim : "sub");
    }

    /** {@code ["vision", "nlp:admin"]} (or one comma-separated string) as team roles. */
    static Map<String, TeamRole> memberships(Object claim) {
        Collection<?> values = claim instanceof Collection<?> list ? list
                : claim instanceof String text ? List.of(text.split(",")) : List.of();
        var memberships = new LinkedHashMap<String, TeamRole>();
        for (Object value : values) {
            String entry = String.valueOf(value).trim().toLowerCase();
            if (entry.isEmpty()) {
                continue;
            }
            int colon = entry.indexOf(':');
            String team = colon < 0 ? entry : entry.substring(0, colon);
            boolean admin = colon >= 0 && entry.substring(colon + 1).matches("admin|team_admin");
            memberships.merge(team, admin ? TeamRole.TEAM_ADMIN : TeamRole.MEMBER,
                    (a, b) -> a == TeamRole.TEAM_ADMIN || b == TeamRole.TEAM_ADMIN ? TeamRole.TEAM_ADMIN : TeamRole.MEMBER);
        }
        return memberships;
    }
}
