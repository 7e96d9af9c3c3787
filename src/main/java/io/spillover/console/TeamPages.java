package io.spillover.console;

import io.spillover.placement.RequestedEntry;
import io.spillover.plans.PlanService;
import io.spillover.profiles.ProfileDefinition;
import io.spillover.profiles.ProfileService;
import io.spillover.security.Caller;
import io.spillover.security.TeamRole;
import io.spillover.security.TokenRequest;
import io.spillover.security.TokenService;
import io.spillover.security.TokenView;
import io.spillover.system.Access;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

/** A team's profiles, training plans and API tokens in the console. */
@Controller
class TeamPages {

    private final ConsoleAccess access;
    private final ProfileService profiles;
    private final PlanService plans;
    private final TokenService tokens;

    TeamPages(ConsoleAccess access, ProfileService profiles, PlanService plans, TokenService tokens) {
        this.access = access;
        this.profiles = profiles;
        this.plans = plans;
        this.tokens = tokens;
    }

    private static final Forms.Fields PROFILE_FORM = Forms.Fields.of("name", "entries", "description")
            .showing("profile", "name").showing("instancePreferences", "entries").showing("instanceCount", "entries");
    private static final Forms.Fields TOKEN_FORM = Forms.Fields.of("name", "role", "accessKey");

    @GetMapping("/teams/{team}/profiles")
    String profiles(@PathVariable String team, Model model) {
        Caller caller = access.require(Access.Level.MEMBER, team);
        model.addAttribute("team", team);
        model.addAttribute("profiles", profiles.list(team));
        model.addAttribute("canEdit", caller.has(team, TeamRole.TEAM_ADMIN));
        return "team/profiles";
    }

    /**
     * Saves a profile from the form: one entry per line, {@code <type> <count> [plan]}, first choice first.
     */
    @PostMapping("/teams/{team}/profiles")
    String saveProfile(@PathVariable String team, @RequestParam String name, @RequestParam String entries,
                       @RequestParam(required = false) String description, @RequestParam Map<String, String> values,
                       Model model, RedirectAttributes redirect) {
        return Forms.submit(model, redirect, "/teams/" + team + "/profiles", PROFILE_FORM, values, () -> {
            var saved = profiles.save(team, name.trim(), new ProfileDefinition(null, parseEntries(entries), null, null,
                    null, null, JobForm.blankToNull(description)), access.caller().name());
            return "Saved " + saved.name() + " v" + saved.version();
        }, () -> profiles(team, model));
    }

    @PostMapping("/teams/{team}/profiles/{profile}/delete")
    String deleteProfile(@PathVariable String team, @PathVariable String profile, RedirectAttributes redirect) {
        profiles.delete(team, profile);
        redirect.addFlashAttribute("flash", "Deleted " + profile + "; jobs that used it keep their copy");
        return "redirect:/teams/" + team + "/profiles";
    }

    @GetMapping("/teams/{team}/plans")
    String plans(@PathVariable String team, Model model) {
        access.require(Access.Level.MEMBER, team);
        model.addAttribute("team", team);
        model.addAttribute("plans", plans.visibleTo(team));
        return "team/plans";
    }

    @GetMapping("/teams/{team}/tokens")
    String tokens(@PathVariable String team, Model model) {
        access.require(Access.Level.TEAM_ADMIN, team);
        model.addAttribute("team", team);
        model.addAttribute("tokens", tokens.list(team));
        model.addAttribute("roles", TeamRole.values());
        return "team/tokens";
    }

    /**
     * Creates a token, with an access key for SigV4-signed calls when asked; its secret (and the access key's) is shown
     * once, on the page this redirects to.
     */
    @PostMapping("/teams/{team}/tokens")
    String createToken(@PathVariable String team, @RequestParam String name, @RequestParam TeamRole role,
                       @RequestParam(defaultValue = "false") boolean accessKey,
                       @RequestParam Map<String, String> values, Model model, RedirectAttributes redirect) {
        return Forms.submit(model, redirect, "/teams/" + team + "/tokens", TOKEN_FORM, values, () -> {
            TokenView issued = tokens.issue(team, new TokenRequest(name, role, null, accessKey),
                    access.caller().name());
            redirect.addFlashAttribute("secret", issued.secret());
            redirect.addFlashAttribute("accessKeyId", issued.accessKeyId());
            redirect.addFlashAttribute("secretAccessKey", issued.secretAccessKey());
            return null;
        }, () -> tokens(team, model));
    }

    @PostMapping("/teams/{team}/tokens/{id}/revoke")
    String revoke(@PathVariable String team, @PathVariable String id, RedirectAttributes redirect) {
        tokens.revoke(team, id);
        redirect.addFlashAttribute("flash", "Revoked token " + id);
        return "redirect:/teams/" + team + "/tokens";
    }

    /** {@code ml.p5.48xlarge 2 h100-q4} per line; a malformed line becomes an entry the rules reject by name. */
    static List<RequestedEntry> parseEntries(String text) {
        var entries = new ArrayList<RequestedEntry>();
        for (String line : text.split("\\R")) {
            String[] words = line.trim().split("\\s+");
            if (words.length == 0 || words[0].isEmpty()) {
                continue;
            }
            Integer count = null;
            if (words.length > 1) {
                try {
                    count = Integer.valueOf(words[1]);
                } catch (NumberFormatException notANumber) {
                    count = 0;
                }
            }
            entries.add(new RequestedEntry(words[0], count, words.length > 2 ? words[2] : null, null));
        }
        return entries;
    }
}
