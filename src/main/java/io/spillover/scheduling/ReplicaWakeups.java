package io.spillover.scheduling;

import io.spillover.placement.OfferingKey;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * Wake-ups between replicas. Every instance serves the API, but only the leader schedules, so a change
 * committed on another instance is announced with PostgreSQL {@code NOTIFY} inside its own transaction:
 * PostgreSQL delivers it if and only if the change commits. Every instance {@code LISTEN}s on a connection
 * of its own, and the leader hands what it hears to its {@link Wakeups}, as if the change had been made
 * here. A notification lost with a broken connection is healed by a sweep once the connection is back.
 */
@Component
class ReplicaWakeups implements SmartLifecycle {

    static final String CHANNEL = "spillover_wakeups";
    /** PostgreSQL refuses payloads of 8000 bytes or more; a wake-up that would not fit asks for a sweep. */
    static final int MAX_PAYLOAD = 7_900;
    private static final Duration RECONNECT_DELAY = Duration.ofSeconds(1);
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Logger log = LoggerFactory.getLogger(ReplicaWakeups.class);

    private final DataSource dataSource;
    private final JdbcClient jdbc;
    private final Wakeups wakeups;
    private final Leadership leadership;
    // A stop also shows within a second, between two waits for a notification.
    private final LoopThread thread = new LoopThread("spillover-replica-wakeups", Duration.ofSeconds(2));

    ReplicaWakeups(DataSource dataSource, JdbcClient jdbc, Wakeups wakeups, Leadership leadership) {
        this.dataSource = dataSource;
        this.jdbc = jdbc;
        this.wakeups = wakeups;
        this.leadership = leadership;
    }

    /** Announces a wake-up to the leader; within a transaction, only if and when it commits. */
    void announce(Scope scope) {
        jdbc.sql("SELECT pg_notify(?, ?)").params(CHANNEL, encode(scope)).query().singleValue();
    }

    static String encode(Scope scope) {
        var offerings = new ArrayList<WireOffering>();
        scope.offerings().forEach((key, trigger) -> offerings.add(
                new WireOffering(key.region(), key.instanceType(), key.source(), trigger)));
        String payload = JSON.writeValueAsString(new Wire(scope.all(), scope.jobs(), scope.teams(), offerings));
        return payload.getBytes(StandardCharsets.UTF_8).length <= MAX_PAYLOAD ? payload
                : JSON.writeValueAsString(new Wire(Trigger.SWEEP, Map.of(), Map.of(), List.of()));
    }

    /** The scope a payload carries. */
    static Wire decode(String payload) {
        return JSON.readValue(payload, Wire.class);
    }

    /** A wake-up as it travels: the scope's parts. */
    record Wire(Trigger all, Map<UUID, Trigger> jobs, Map<String, Trigger> teams,
                List<WireOffering> offerings) {

        Wire {
            jobs = jobs == null ? Map.of() : jobs;
            teams = teams == null ? Map.of() : teams;
            offerings = offerings == null ? List.of() : offerings;
        }

        Scope scope() {
            var scope = all == null ? new Scope() : Scope.everything(all);
            jobs.forEach((id, trigger) -> scope.and(Scope.job(id, trigger)));
            teams.forEach((team, trigger) -> scope.and(Scope.team(team, trigger)));
            offerings.forEach(o -> scope.and(
                    Scope.offering(new OfferingKey(o.region(), o.instanceType(), o.source()), o.trigger())));
            return scope;
        }
    }

    record WireOffering(String region, String instanceType, String source, Trigger trigger) {
    }

    @Override
    public void start() {
        thread.start(this::listen);
    }

    @Override
    public void stop() {
        thread.stop();
    }

    @Override
    public boolean isRunning() {
        return thread.running();
    }

    private void listen() {
        boolean reconnected = false;
        while (thread.running()) {
            try (Connection connection = dataSource.getConnection()) {
                connection.setAutoCommit(true);
                try (Statement statement = connection.createStatement()) {
                    statement.execute("LISTEN " + CHANNEL);
                }
                if (reconnected && leadership.leading()) {
                    wakeups.add(Scope.everything(Trigger.SWEEP)); // whatever was announced meanwhile is lost
                }
                PGConnection postgres = connection.unwrap(PGConnection.class);
                try {
                    while (thread.running()) {
                        PGNotification[] notifications = postgres.getNotifications(1_000);
                        for (PGNotification notification : notifications == null ? new PGNotification[0]
                                : notifications) {
                            receive(notification.getParameter());
                        }
                    }
                } finally {
                    unlisten(connection); // the connection goes back to the pool, where nobody would read them
                }
            } catch (SQLException e) {
                if (!thread.running()) {
                    return;
                }
                log.warn("Lost the connection that listens for other replicas' wake-ups; reconnecting: {}",
                        e.getMessage());
                reconnected = true;
                try {
                    Thread.sleep(RECONNECT_DELAY.toMillis());
                } catch (InterruptedException interrupted) {
                    return;
                }
            }
        }
    }

    private static void unlisten(Connection connection) {
        try (Statement statement = connection.createStatement()) {
            statement.execute("UNLISTEN " + CHANNEL);
        } catch (SQLException e) {
            log.debug("Could not stop listening on a connection that is going away anyway", e);
        }
    }

    private void receive(String payload) {
        Wire wire;
        try {
            wire = decode(payload);
        } catch (JacksonException | IllegalArgumentException e) {
            log.warn("Ignored a wake-up this version cannot read ({}); the next sweep covers it", e.getMessage());
            return;
        }
        // An instance hears its own announcements too: those it made before it took the lead still concern it.
        if (leadership.leading()) {
            wakeups.add(wire.scope());
        }
    }
}
