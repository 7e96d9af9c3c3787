package io.spillover.tenancy;

import io.spillover.system.Access;
import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping("/api/v1/admin/teams")
class AdminTeamController {

    private final TeamService teams;

    AdminTeamController(TeamService teams) {
        this.teams = teams;
    }

    @GetMapping
    @Access(Access.Level.PLATFORM_ADMIN)
    List<TeamView> list() {
        return teams.list();
    }

    @GetMapping("/{team}")
    @Access(Access.Level.PLATFORM_ADMIN)
    TeamView get(@PathVariable String team) {
        return teams.get(team);
    }

    /** Creates (201) or changes (200) a team. */
    @PutMapping("/{team}")
    @Access(Access.Level.PLATFORM_ADMIN)
    ResponseEntity<TeamView> put(@PathVariable String team, @RequestBody TeamDefinition definition) {
        boolean created = teams.put(team, definition);
        return ResponseEntity.status(created ? HttpStatus.CREATED : HttpStatus.OK).body(teams.get(team));
    }

    @PutMapping("/{team}/quotas")
    @Access(Access.Level.PLATFORM_ADMIN)
    TeamView quotas(@PathVariable String team, @RequestBody QuotaDefinition quotas) {
        return teams.setQuotas(team, quotas);
    }
}
