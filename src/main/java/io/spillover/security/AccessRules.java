package io.spillover.security;

import io.spillover.shared.ForbiddenException;
import io.spillover.shared.NotFoundException;
import io.spillover.shared.OutsideTeamException;
import io.spillover.system.Access;

/**
 * The one place access is decided, for the API and the console alike: a caller outside the team gets
 * {@link OutsideTeamException}, a {@link NotFoundException} (as if the team did not exist), one without the
 * role {@link ForbiddenException}.
 */
public final class AccessRules {

    private AccessRules() {
    }

    public static void check(Access.Level level, Caller caller, String team) {
        switch (level) {
            case AUTHENTICATED -> { }
            case PLATFORM_ADMIN -> {
                if (!caller.platformAdmin()) {
                    throw new ForbiddenException("only platform admins may do this");
                }
            }
            case MEMBER, TEAM_ADMIN -> {
                if (team == null) {
                    throw new IllegalStateException("a team-scoped operation needs a team");
                }
                if (!caller.sees(team)) {
                    throw new OutsideTeamException(team);
                }
                if (level == Access.Level.TEAM_ADMIN && !caller.has(team, TeamRole.TEAM_ADMIN)) {
                    throw new ForbiddenException("only team admins of " + team + " may do this");
                }
            }
        }
    }
}
