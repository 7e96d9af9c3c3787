package io.spillover.security;

import io.spillover.system.Access;
import io.spillover.tenancy.TeamService;
import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/** A team's API tokens, kept by its team admins; platform-admin tokens, kept by platform admins. */
@RestController
class TokenController {

    private final TokenService tokens;
    private final TeamService teams;
    private final Callers callers;

    TokenController(TokenService tokens, TeamService teams, Callers callers) {
        this.tokens = tokens;
        this.teams = teams;
        this.callers = callers;
    }

    /** 201 with the token; its {@code secret} is shown in this answer only. */
    @PostMapping("/api/v1/teams/{team}/tokens")
    @ResponseStatus(HttpStatus.CREATED)
    @Access(Access.Level.TEAM_ADMIN)
    TokenView issue(@PathVariable String team, @RequestBody TokenRequest request) {
        teams.state(team);
        return tokens.issue(team, request, callers.name());
    }

    @GetMapping("/api/v1/teams/{team}/tokens")
    @Access(Access.Level.TEAM_ADMIN)
    List<TokenView> list(@PathVariable String team) {
        teams.state(team);
        return tokens.list(team);
    }

    @DeleteMapping("/api/v1/teams/{team}/tokens/{id}")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    @Access(Access.Level.TEAM_ADMIN)
    void revoke(@PathVariable String team, @PathVariable String id) {
        tokens.revoke(team, id);
    }

    @PostMapping("/api/v1/admin/tokens")
    @ResponseStatus(HttpStatus.CREATED)
    @Access(Access.Level.PLATFORM_ADMIN)
    TokenView issuePlatform(@RequestBody TokenRequest request) {
        return tokens.issuePlatform(request, callers.name());
    }

    @GetMapping("/api/v1/admin/tokens")
    @Access(Access.Level.PLATFORM_ADMIN)
    List<TokenView> listPlatform() {
        return tokens.list(null);
    }

    @DeleteMapping("/api/v1/admin/tokens/{id}")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    @Access(Access.Level.PLATFORM_ADMIN)
    void revokePlatform(@PathVariable String id) {
        tokens.revokePlatform(id);
    }
}
