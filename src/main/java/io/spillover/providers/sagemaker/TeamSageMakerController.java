package io.spillover.providers.sagemaker;

import io.spillover.providers.TeamSageMakerSettings;
import io.spillover.system.Access;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** Platform admins set each team's SageMaker defaults: role, output location, VPC, KMS key and tags. */
@RestController
@RequestMapping("/api/v1/admin/teams/{team}/sagemaker")
class TeamSageMakerController {

    private final TeamSageMakerService settings;

    TeamSageMakerController(TeamSageMakerService settings) {
        this.settings = settings;
    }

    @GetMapping
    @Access(Access.Level.PLATFORM_ADMIN)
    TeamSageMakerSettings get(@PathVariable String team) {
        return settings.of(team);
    }

    /** Replaces the team's settings: a field left out is unset, and the platform's default applies. */
    @PutMapping
    @Access(Access.Level.PLATFORM_ADMIN)
    TeamSageMakerSettings put(@PathVariable String team, @RequestBody(required = false) TeamSageMakerSettings body) {
        return settings.put(team, body);
    }
}
