package io.spillover.console;

import io.spillover.security.AccessRules;
import io.spillover.security.Caller;
import io.spillover.security.Callers;
import io.spillover.shared.ForbiddenException;
import io.spillover.system.Access;
import io.spillover.tenancy.TeamService;
import io.spillover.tenancy.TeamView;
import java.util.List;
import org.springframework.stereotype.Component;

/** The console's access checks: the API's rules, applied to the signed-in person. */
@Component
class ConsoleAccess {

    private final Callers callers;
    private final TeamService teams;

    ConsoleAccess(Callers callers, TeamService teams) {
        this.callers = callers;
        this.teams = teams;
    }

    Caller caller() {
        return callers.current().orElseThrow(() -> new ForbiddenException("not signed in"));
    }

    /** The caller, when they may act at this level on the team (404 outside it, 403 without the role). */
    Caller require(Access.Level level, String team) {
        Caller caller = caller();
        AccessRules.check(level, caller, team);
        return caller;
    }

    /** The teams the caller works in: theirs, or every team for a platform admin. */
    List<String> teamsOf(Caller caller) {
        return caller.platformAdmin()
                ? teams.list().stream().map(TeamView::name).toList()
                : caller.memberships().keySet().stream().sorted().toList();
    }
}
