package io.spillover.console;

import io.spillover.system.Access;
import io.spillover.webhooks.WebhookDefinition;
import io.spillover.webhooks.WebhookService;
import java.util.List;
import java.util.Map;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

/** A team's webhooks and their deliveries in the console, for its team admins. */
@Controller
class WebhookPages {

    static final List<String> EVENT_TYPES = List.of("job.started", "job.fell-back", "job.completed", "job.failed",
            "job.stopped", "job.pending-timeout");
    private static final Forms.Fields FORM = Forms.Fields.of("name", "url", "events", "jobNameGlob")
            .showing("webhook", "name");

    private final ConsoleAccess access;
    private final WebhookService webhooks;

    WebhookPages(ConsoleAccess access, WebhookService webhooks) {
        this.access = access;
        this.webhooks = webhooks;
    }

    @GetMapping("/teams/{team}/webhooks")
    String list(@PathVariable String team, Model model) {
        access.require(Access.Level.TEAM_ADMIN, team);
        model.addAttribute("team", team);
        model.addAttribute("webhooks", webhooks.list(team));
        model.addAttribute("eventTypes", EVENT_TYPES);
        return "team/webhooks";
    }

    /** Makes or changes a hook; a new one's secret is shown once, on the page this redirects to. */
    @PostMapping("/teams/{team}/webhooks")
    String save(@PathVariable String team, @RequestParam String name, @RequestParam String url,
                @RequestParam(required = false) List<String> events,
                @RequestParam(required = false) String jobNameGlob, @RequestParam Map<String, String> values,
                Model model, RedirectAttributes redirect) {
        var shown = new java.util.HashMap<>(values);
        shown.put("events", events == null ? "" : String.join(",", events));
        return Forms.submit(model, redirect, "/teams/" + team + "/webhooks", FORM, shown, () -> {
            var saved = webhooks.save(team, name.trim(), new WebhookDefinition(url, events == null ? List.of() : events,
                    JobForm.blankToNull(jobNameGlob)), access.caller().name());
            if (saved.created()) {
                redirect.addFlashAttribute("secret", saved.webhook().secret());
            }
            return "Saved webhook " + saved.webhook().name();
        }, () -> list(team, model));
    }

    @PostMapping("/teams/{team}/webhooks/{webhook}/delete")
    String delete(@PathVariable String team, @PathVariable String webhook, RedirectAttributes redirect) {
        webhooks.delete(team, webhook);
        redirect.addFlashAttribute("flash", "Deleted webhook " + webhook);
        return "redirect:/teams/" + team + "/webhooks";
    }

    @PostMapping("/teams/{team}/webhooks/{webhook}/test")
    String test(@PathVariable String team, @PathVariable String webhook, RedirectAttributes redirect) {
        var delivery = webhooks.ping(team, webhook);
        redirect.addFlashAttribute("flash", "Sent a ping to " + webhook + " (delivery " + delivery.id() + ")");
        return "redirect:/teams/" + team + "/webhooks/" + webhook;
    }

    @GetMapping("/teams/{team}/webhooks/{webhook}")
    String deliveries(@PathVariable String team, @PathVariable String webhook, Model model) {
        access.require(Access.Level.TEAM_ADMIN, team);
        model.addAttribute("team", team);
        model.addAttribute("webhook", webhooks.get(team, webhook));
        model.addAttribute("deliveries", webhooks.deliveries(team, webhook, null, 0, 50));
        return "team/webhook";
    }

    @PostMapping("/teams/{team}/webhooks/{webhook}/deliveries/{delivery}/redeliver")
    String redeliver(@PathVariable String team, @PathVariable String webhook, @PathVariable long delivery,
                     Model model, RedirectAttributes redirect) {
        return Forms.submit(model, redirect, "/teams/" + team + "/webhooks/" + webhook, FORM, Map.of(), () -> {
            long made = webhooks.redeliver(team, webhook, delivery).id();
            return "Sent delivery " + delivery + " again as delivery " + made;
        }, () -> deliveries(team, webhook, model));
    }
}
