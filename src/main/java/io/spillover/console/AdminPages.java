package io.spillover.console;

import io.spillover.capacity.CapacityService;
import io.spillover.plans.PlanService;
import io.spillover.plans.TrainingPlanDefinition;
import io.spillover.providers.TeamSageMakerDefaults;
import io.spillover.security.TeamRole;
import io.spillover.security.UserDefinition;
import io.spillover.security.UserService;
import io.spillover.shared.InvalidRequestException;
import io.spillover.system.Access;
import io.spillover.tenancy.Queueing;
import io.spillover.tenancy.QuotaDefinition;
import io.spillover.tenancy.SharingDefinition;
import io.spillover.placement.SharingStrategy;
import io.spillover.tenancy.TeamDefinition;
import io.spillover.tenancy.TeamService;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

/** Platform admin pages: teams and quotas, people, training plans, the fleet. */
@Controller
class AdminPages {

    private final ConsoleAccess access;
    private final TeamService teams;
    private final UserService users;
    private final PlanService plans;
    private final CapacityService capacity;
    private final TeamSageMakerDefaults sagemaker;

    AdminPages(ConsoleAccess access, TeamService teams, UserService users, PlanService plans,
               CapacityService capacity, TeamSageMakerDefaults sagemaker) {
        this.sagemaker = sagemaker;
        this.access = access;
        this.teams = teams;
        this.users = users;
        this.plans = plans;
        this.capacity = capacity;
    }

    private static final Forms.Fields TEAM_FORM = Forms.Fields.of("name", "displayName", "queueing", "limits",
            "maxAccelerators", "maxConcurrentJobs", "sharing", "borrowLimitPercent", "borrowLimits")
            .showing("team", "name").showing("instanceLimits", "limits").showing("sharing.strategy", "sharing")
            .showing("sharing.borrowLimitPercent", "borrowLimitPercent").showing("sharing.borrowLimits", "borrowLimits");
    private static final Forms.Fields USER_FORM = Forms.Fields.of("username", "displayName", "password",
            "platformAdmin");
    private static final Forms.Fields MEMBERSHIP_FORM = Forms.Fields.of("team", "role");
    private static final Forms.Fields PLAN_FORM = Forms.Fields.of("name", "instanceType", "instanceCount", "region",
            "startTime", "endTime", "teamNames").showing("plan", "name").showing("teams", "teamNames");
    private static final Forms.Fields FLEET_FORM = Forms.Fields.of("capacity").showing("onDemandCapacity", "capacity");

    @GetMapping("/admin/teams")
    String teams(Model model) {
        access.require(Access.Level.PLATFORM_ADMIN, null);
        model.addAttribute("teams", teams.list());
        model.addAttribute("sagemaker", sagemaker.all());
        model.addAttribute("queueings", Queueing.values());
        model.addAttribute("sharings", SharingStrategy.values());
        return "admin/teams";
    }

    /**
     * Creates or changes a team, its sharing and its quotas: guarantees and borrow limits one {@code type=count} per
     * line.
     */
    @PostMapping("/admin/teams")
    String saveTeam(@RequestParam String name, @RequestParam String displayName, @RequestParam Queueing queueing,
                    @RequestParam(defaultValue = "") String limits,
                    @RequestParam(required = false) Integer maxAccelerators,
                    @RequestParam(required = false) Integer maxConcurrentJobs,
                    @RequestParam(defaultValue = "LEND") SharingStrategy sharing,
                    @RequestParam(required = false) Integer borrowLimitPercent,
                    @RequestParam(defaultValue = "") String borrowLimits, @RequestParam Map<String, String> values,
                    Model model, RedirectAttributes redirect) {
        return Forms.submit(model, redirect, "/admin/teams", TEAM_FORM, values, () -> {
            teams.put(name.trim(), new TeamDefinition(displayName, 1, queueing,
                            new SharingDefinition(sharing, borrowLimitPercent,
                                    borrowLimits.isBlank() ? null : parseLimits(borrowLimits))),
                    new QuotaDefinition(parseLimits(limits), maxAccelerators, maxConcurrentJobs));
            return "Saved team " + name;
        }, () -> teams(model));
    }

    @GetMapping("/admin/users")
    String users(Model model) {
        access.require(Access.Level.PLATFORM_ADMIN, null);
        model.addAttribute("users", users.list());
        model.addAttribute("teams", teams.list());
        model.addAttribute("roles", TeamRole.values());
        return "admin/users";
    }

    @PostMapping("/admin/users")
    String saveUser(@RequestParam String username, @RequestParam String displayName,
                    @RequestParam(required = false) String password,
                    @RequestParam(defaultValue = "false") boolean platformAdmin, @RequestParam Map<String, String> values,
                    Model model, RedirectAttributes redirect) {
        model.addAttribute("failed", "user");
        return Forms.submit(model, redirect, "/admin/users", USER_FORM, values, () -> {
            users.put(username.trim(), new UserDefinition(displayName, JobForm.blankToNull(password), platformAdmin, false));
            return "Saved " + username;
        }, () -> users(model));
    }

    @PostMapping("/admin/users/{username}/memberships")
    String join(@PathVariable String username, @RequestParam String team, @RequestParam TeamRole role,
                @RequestParam Map<String, String> values, Model model, RedirectAttributes redirect) {
        model.addAttribute("failed", "membership:" + username);
        return Forms.submit(model, redirect, "/admin/users", MEMBERSHIP_FORM, values, () -> {
            users.setMembership(username, team, role);
            return username + " is " + role + " of " + team;
        }, () -> users(model));
    }

    @GetMapping("/admin/plans")
    String plans(Model model) {
        access.require(Access.Level.PLATFORM_ADMIN, null);
        model.addAttribute("plans", plans.list());
        return "admin/plans";
    }

    @PostMapping("/admin/plans")
    String savePlan(@RequestParam String name, @RequestParam String instanceType, @RequestParam Integer instanceCount,
                    @RequestParam(required = false) String region, @RequestParam String startTime,
                    @RequestParam String endTime, @RequestParam(defaultValue = "") String teamNames,
                    @RequestParam Map<String, String> values, Model model, RedirectAttributes redirect) {
        return Forms.submit(model, redirect, "/admin/plans", PLAN_FORM, values, () -> {
            plans.put(name.trim(), new TrainingPlanDefinition(null, null, instanceType.trim(), instanceCount,
                    JobForm.blankToNull(region), instant("startTime", startTime), instant("endTime", endTime),
                    Arrays.stream(teamNames.split(",")).map(String::trim).filter(t -> !t.isEmpty()).toList()));
            return "Saved plan " + name;
        }, () -> plans(model));
    }

    @GetMapping("/admin/fleet")
    String fleet(Model model) {
        access.require(Access.Level.PLATFORM_ADMIN, null);
        model.addAttribute("offerings", capacity.offerings());
        return "admin/fleet";
    }

    @PostMapping("/admin/fleet")
    String setCapacity(@RequestParam String region, @RequestParam String instanceType, @RequestParam Integer capacity,
                       @RequestParam Map<String, String> values, Model model, RedirectAttributes redirect) {
        model.addAttribute("failed", "fleet:" + region + "/" + instanceType);
        return Forms.submit(model, redirect, "/admin/fleet", FLEET_FORM, values, () -> {
            this.capacity.setOnDemandCapacity(region, instanceType, capacity);
            return instanceType + " in " + region + " now has " + capacity + " instance(s)";
        }, () -> fleet(model));
    }

    static Map<String, Integer> parseLimits(String text) {
        var limits = new LinkedHashMap<String, Integer>();
        for (String line : text.split("\\R")) {
            String trimmed = line.trim();
            if (trimmed.isEmpty()) {
                continue;
            }
            String[] parts = trimmed.split("\\s*=\\s*");
            try {
                limits.put(parts[0], parts.length > 1 ? Integer.valueOf(parts[1]) : -1);
            } catch (NumberFormatException e) {
                limits.put(parts[0], -1);
            }
        }
        return limits;
    }

    private static Instant instant(String field, String text) {
        try {
            return Instant.parse(text.trim());
        } catch (DateTimeParseException e) {
            throw new InvalidRequestException(field, "must be an ISO-8601 instant such as 2026-12-02T10:00:00Z");
        }
    }
}
