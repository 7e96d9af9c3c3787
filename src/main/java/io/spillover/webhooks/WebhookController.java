package io.spillover.webhooks;

import io.spillover.security.Callers;
import io.spillover.system.Access;
import io.swagger.v3.oas.annotations.Operation;
import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/** A team's webhooks, kept by its team admins. */
@RestController
@RequestMapping("/api/v1/teams/{team}/webhooks")
class WebhookController {

    private final WebhookService webhooks;
    private final Callers callers;

    WebhookController(WebhookService webhooks, Callers callers) {
        this.webhooks = webhooks;
        this.callers = callers;
    }

    @GetMapping
    @Access(Access.Level.TEAM_ADMIN)
    List<WebhookView> list(@PathVariable String team) {
        return webhooks.list(team);
    }

    @GetMapping("/{webhook}")
    @Access(Access.Level.TEAM_ADMIN)
    WebhookView get(@PathVariable String team, @PathVariable String webhook) {
        return webhooks.get(team, webhook);
    }

    /** 201 with the new hook and its signing secret (shown in this answer only); 200 when it changed one. */
    @Operation(summary = "Make or change a webhook",
            description = "A new hook's answer (201) carries its signing secret, `whsec_<base64>`, the only time it is"
                    + " shown. Changing a hook (200) keeps its secret and enables it again if a 410 disabled it.")
    @PutMapping("/{webhook}")
    @Access(Access.Level.TEAM_ADMIN)
    ResponseEntity<WebhookView> put(@PathVariable String team, @PathVariable String webhook,
                                    @RequestBody WebhookDefinition definition) {
        WebhookService.Saved saved = webhooks.save(team, webhook, definition, callers.name());
        return ResponseEntity.status(saved.created() ? HttpStatus.CREATED : HttpStatus.OK).body(saved.webhook());
    }

    @DeleteMapping("/{webhook}")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    @Access(Access.Level.TEAM_ADMIN)
    void delete(@PathVariable String team, @PathVariable String webhook) {
        webhooks.delete(team, webhook);
    }

    @Operation(summary = "Send the hook a ping", description = "An `io.spillover.webhook.ping` event, signed and"
            + " delivered as any other; 202 with its delivery, whose attempts show in the hook's deliveries.")
    @PostMapping("/{webhook}:test")
    @ResponseStatus(HttpStatus.ACCEPTED)
    @Access(Access.Level.TEAM_ADMIN)
    DeliveryView test(@PathVariable String team, @PathVariable String webhook) {
        return webhooks.ping(team, webhook);
    }

    @Operation(summary = "The hook's deliveries, newest first, with every attempt (status, latency, error)")
    @GetMapping("/{webhook}/deliveries")
    @Access(Access.Level.TEAM_ADMIN)
    List<DeliveryView> deliveries(@PathVariable String team, @PathVariable String webhook,
                                  @RequestParam(required = false) String state,
                                  @RequestParam(defaultValue = "0") int page,
                                  @RequestParam(defaultValue = "20") int size) {
        return webhooks.deliveries(team, webhook, state, page, size);
    }

    @Operation(summary = "Send a delivered or failed delivery again",
            description = "A new delivery of the same event, with the same `webhook-id`; 202 with it.")
    @PostMapping("/{webhook}/deliveries/{delivery}:redeliver")
    @ResponseStatus(HttpStatus.ACCEPTED)
    @Access(Access.Level.TEAM_ADMIN)
    DeliveryView redeliver(@PathVariable String team, @PathVariable String webhook, @PathVariable long delivery) {
        return webhooks.redeliver(team, webhook, delivery);
    }
}
