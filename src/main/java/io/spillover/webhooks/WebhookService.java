package io.spillover.webhooks;

import io.spillover.shared.ConflictException;
import io.spillover.shared.InvalidRequestException;
import io.spillover.shared.NotFoundException;
import io.spillover.shared.Violation;
import io.spillover.system.Access;
import io.spillover.system.Change;
import io.spillover.system.SecretBox;
import io.spillover.tenancy.TeamService;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * A team's hooks, kept by its team admins: saved (the signing secret made and shown once), listed, deleted,
 * pinged, and their deliveries read and sent again by hand.
 */
@Service
public class WebhookService {

    static final Pattern NAME = Pattern.compile("^[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?$");
    /** Hooks one team may have. */
    public static final int MAX_PER_TEAM = 100;
    static final int MAX_GLOB = 200;
    static final int MAX_PAGE_SIZE = 100;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Webhooks webhooks;
    private final Deliveries deliveries;
    private final Egress egress;
    private final SecretBox secrets;
    private final Outbox outbox;
    private final CloudEvents cloudEvents;
    private final TeamService teams;
    private final Clock clock;

    WebhookService(Webhooks webhooks, Deliveries deliveries, Egress egress, SecretBox secrets, Outbox outbox,
                   CloudEvents cloudEvents, TeamService teams, Clock clock) {
        this.webhooks = webhooks;
        this.deliveries = deliveries;
        this.egress = egress;
        this.secrets = secrets;
        this.outbox = outbox;
        this.cloudEvents = cloudEvents;
        this.teams = teams;
        this.clock = clock;
    }

    /** A hook saved: made (its answer the only one to show the secret) or changed. */
    public record Saved(WebhookView webhook, boolean created) {
    }

    @Transactional
    @Change(level = Access.Level.TEAM_ADMIN, action = "save webhook", target = "teams/{team}/webhooks/{name}")
    public Saved save(String team, String name, WebhookDefinition definition, String by) {
        teams.state(team);
        List<Violation> violations = new ArrayList<>();
        if (!NAME.matcher(name).matches()) {
            violations.add(new Violation("webhook", "must be 1 to 64 lowercase letters, digits or hyphens, starting"
                    + " and ending with a letter or digit"));
        }
        String glob = definition == null || definition.jobNameGlob() == null ? "*" : definition.jobNameGlob();
        if (definition == null) {
            violations.add(new Violation("body", "must not be empty"));
        } else {
            violations.addAll(egress.check(definition.url()));
            violations.addAll(checkEvents(definition.events()));
            if (glob.isEmpty() || glob.length() > MAX_GLOB || glob.chars().anyMatch(Character::isISOControl)) {
                violations.add(new Violation("jobNameGlob", "must be 1 to " + MAX_GLOB + " characters, without control"
                        + " characters (* for any run of characters, ? for one)"));
            }
        }
        if (!violations.isEmpty()) {
            throw new InvalidRequestException(violations);
        }
        Instant now = now();
        if (webhooks.find(team, name).isPresent()) {
            webhooks.update(team, name, definition, glob, now);
            return new Saved(webhooks.find(team, name).orElseThrow().view(), false);
        }
        if (webhooks.count(team) >= MAX_PER_TEAM) {
            throw new InvalidRequestException("webhook", "team " + team + " has " + MAX_PER_TEAM
                    + " hooks already, the most a team may have");
        }
        String keyId = secrets.keyId().orElseThrow(() -> new ConflictException("this server cannot keep webhook"
                + " secrets: its operator must set spillover.webhooks.secret-key (SPILLOVER_WEBHOOKS_SECRET_KEY)"));
        byte[] secret = new byte[32];
        RANDOM.nextBytes(secret);
        try {
            webhooks.insert(team, name, definition, glob, secrets.seal(secret), keyId, by, now);
        } catch (DuplicateKeyException e) {
            throw new ConflictException("another request made webhook " + name + " of team " + team
                    + " at the same moment; save it again to change it");
        }
        return new Saved(webhooks.find(team, name).orElseThrow().view()
                .withSecret("whsec_" + Base64.getEncoder().encodeToString(secret)), true);
    }

    public WebhookView get(String team, String name) {
        return stored(team, name).view();
    }

    public List<WebhookView> list(String team) {
        teams.state(team);
        return webhooks.of(team);
    }

    /** Deletes a hook with its deliveries (pending ones are not sent). */
    @Transactional
    @Change(level = Access.Level.TEAM_ADMIN, action = "delete webhook", target = "teams/{team}/webhooks/{name}")
    public void delete(String team, String name) {
        teams.state(team);
        if (!webhooks.delete(team, name)) {
            throw notFound(team, name);
        }
    }

    /** Sends the hook a ping ({@code io.spillover.webhook.ping}) through the outbox, as any event; its delivery. */
    @Transactional
    @Change(level = Access.Level.TEAM_ADMIN, action = "test webhook", target = "teams/{team}/webhooks/{name}")
    public DeliveryView ping(String team, String name) {
        Webhooks.Stored hook = stored(team, name);
        UUID id = UUID.randomUUID();
        outbox.ping(id, team, hook.id(), cloudEvents.ping(id, team, name, now()));
        long delivery = deliveries.deliverPing(team, hook.id(), id);
        return deliveries.find(hook.id(), delivery).orElseThrow();
    }

    /** The hook's deliveries, newest first, with their attempts; {@code state} PENDING, DELIVERED or FAILED, or all. */
    @Transactional(readOnly = true)
    public List<DeliveryView> deliveries(String team, String name, String state, int page, int size) {
        Webhooks.Stored hook = stored(team, name);
        var violations = new ArrayList<Violation>();
        if (state != null && !Set.of("PENDING", "DELIVERED", "FAILED").contains(state)) {
            violations.add(new Violation("state", "must be PENDING, DELIVERED or FAILED"));
        }
        if (page < 0 || page > 1_000_000) {
            violations.add(new Violation("page", "must be from 0 to 1000000"));
        }
        if (size < 1 || size > MAX_PAGE_SIZE) {
            violations.add(new Violation("size", "must be from 1 to " + MAX_PAGE_SIZE));
        }
        if (!violations.isEmpty()) {
            throw new InvalidRequestException(violations);
        }
        return deliveries.ofHook(hook.id(), state, page, size);
    }

    /**
     * Sends a delivery again by hand, as a new delivery of the same event (the same {@code webhook-id}), tried
     * and retried as a new one. One still pending is refused: it is being tried already.
     */
    @Transactional
    @Change(level = Access.Level.TEAM_ADMIN, action = "redeliver webhook delivery",
            target = "teams/{team}/webhooks/{name}/deliveries/{delivery}")
    public DeliveryView redeliver(String team, String name, long delivery) {
        Webhooks.Stored hook = stored(team, name);
        DeliveryView original = deliveries.find(hook.id(), delivery).orElseThrow(() -> new NotFoundException(
                "webhook " + name + " of team " + team + " has no delivery " + delivery));
        if ("PENDING".equals(original.state())) {
            throw new ConflictException("delivery " + delivery + " is still being tried; it can be sent again once it"
                    + " was delivered or failed");
        }
        long made = deliveries.redeliver(team, hook.id(), delivery);
        outbox.redelivered();
        return deliveries.find(hook.id(), made).orElseThrow();
    }

    private Webhooks.Stored stored(String team, String name) {
        teams.state(team);
        return webhooks.find(team, name).orElseThrow(() -> notFound(team, name));
    }

    private static NotFoundException notFound(String team, String name) {
        return new NotFoundException("team " + team + " has no webhook " + name);
    }

    private static List<Violation> checkEvents(List<String> events) {
        if (events == null || events.isEmpty()) {
            return List.of(new Violation("events", "name at least one of " + String.join(", ",
                    EventType.subscriptions())));
        }
        var violations = new ArrayList<Violation>();
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < events.size(); i++) {
            String event = events.get(i);
            if (event == null || EventType.bySubscription(event).isEmpty()) {
                violations.add(new Violation("events[" + i + "]", "must be one of " + String.join(", ",
                        EventType.subscriptions())));
            } else if (!seen.add(event)) {
                violations.add(new Violation("events[" + i + "]", event + " is named twice"));
            }
        }
        return violations;
    }

    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MICROS);
    }
}
