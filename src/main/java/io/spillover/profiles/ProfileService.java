package io.spillover.profiles;

import io.spillover.catalog.JobKind;
import io.spillover.placement.Submission;
import io.spillover.placement.SubmissionRules;
import io.spillover.plans.PlanService;
import io.spillover.shared.InvalidRequestException;
import io.spillover.shared.NotFoundException;
import io.spillover.shared.Violation;
import io.spillover.system.Access;
import io.spillover.system.Change;
import io.spillover.system.Validation;
import io.spillover.tenancy.TeamService;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Saves profiles as new versions after the same checks a job's list gets (but the quota, checked when a job
 * uses it), and finds the version a job takes.
 */
@Service
public class ProfileService {

    static final Pattern NAME = Pattern.compile("^[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?$");

    private final Profiles profiles;
    private final TeamService teams;
    private final PlanService plans;
    private final SubmissionRules rules;
    private final Validation validation;
    private final Clock clock;

    ProfileService(Profiles profiles, TeamService teams, PlanService plans, SubmissionRules rules,
                   Validation validation, Clock clock) {
        this.profiles = profiles;
        this.teams = teams;
        this.plans = plans;
        this.rules = rules;
        this.validation = validation;
        this.clock = clock;
    }

    /** Saves a new version; answers it. */
    @Transactional
    @Change(level = Access.Level.TEAM_ADMIN, action = "save profile", target = "teams/{team}/profiles/{name}")
    public ProfileView save(String team, String name, ProfileDefinition definition, String by) {
        var teamState = teams.state(team);
        List<Violation> violations = new ArrayList<>(validation.check(definition));
        if (!NAME.matcher(name).matches()) {
            violations.add(0, new Violation("profile", "must be 1 to 64 lowercase letters, digits or hyphens,"
                    + " starting and ending with a letter or digit"));
        }
        if (definition != null) {
            var visiblePlans = plans.statesVisibleTo(team);
            // Without a kind, each entry must suit some kind of job; training, the broader, is checked.
            JobKind kind = definition.kind() == null ? JobKind.TRAINING : definition.kind();
            violations.addAll(rules.checkWithoutQuota(new Submission(kind, definition.instancePreferences(),
                    definition.instanceCount(), definition.maxPendingTimeInSeconds(), definition.requires()),
                    teamState, visiblePlans).violations());
        }
        if (!violations.isEmpty()) {
            throw new InvalidRequestException(violations);
        }
        profiles.save(team, name, definition, by, clock.instant());
        return profiles.latest(team, name).orElseThrow();
    }

    public ProfileView get(String team, String name) {
        teams.state(team);
        return profiles.latest(team, name).orElseThrow(() -> new NotFoundException("team " + team
                + " has no profile " + name));
    }

    /** The current version for a job to copy, if there is one. */
    public Optional<ProfileView> find(String team, String name) {
        return profiles.latest(team, name);
    }

    public List<ProfileView> list(String team) {
        teams.state(team);
        return profiles.latestOfTeam(team);
    }

    /** Deletes a profile; jobs that used it keep their copy. */
    @Transactional
    @Change(level = Access.Level.TEAM_ADMIN, action = "delete profile", target = "teams/{team}/profiles/{name}")
    public void delete(String team, String name) {
        teams.state(team);
        if (!profiles.delete(team, name)) {
            throw new NotFoundException("team " + team + " has no profile " + name);
        }
    }
}
