package io.spillover.fleet;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Who schedules, as PostgreSQL knows it: the application name of the session holding the scheduler's
 * advisory lock ({@code io.spillover.scheduling.Leadership}, key {@code 0x7370696c6c6f76}). A bigint advisory
 * lock shows in {@code pg_locks} with the key's high 32 bits as {@code classid}, its low 32 bits as
 * {@code objid}, and {@code objsubid} 1.
 */
final class LeaderLock {

    static final long KEY = 0x7370696c6c6f76L;

    private final JdbcClient database;

    LeaderLock(JdbcClient database) {
        this.database = database;
    }

    /** The name of the instance holding the lock now, if any does. */
    Optional<String> holder() {
        return database.sql("""
                        SELECT a.application_name
                          FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
                         WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
                           AND l.classid::bigint = ? AND l.objid::bigint = ?
                           AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())""")
                .params(KEY >>> 32, KEY & 0xffffffffL)
                .query(String.class).optional();
    }

    /** Waits until an instance holds the lock; its name. */
    String awaitHolder(Duration atMost) {
        return await("an instance holds the scheduler lock").atMost(atMost).pollInterval(Duration.ofMillis(50))
                .until(this::holder, Optional::isPresent).orElseThrow();
    }

    /**
     * Waits until an instance other than {@code dead} holds the lock, watching every 50 ms; who, and how long
     * after {@code killedAt} it was first seen.
     */
    Evidence.Takeover awaitTakeover(String how, String dead, Instant killedAt, Duration atMost) {
        String successor = await("an instance other than " + dead + " holds the scheduler lock").atMost(atMost)
                .pollInterval(Duration.ofMillis(50))
                .until(this::holder, h -> h.isPresent() && !h.get().equals(dead)).orElseThrow();
        return new Evidence.Takeover(how, dead, successor, Duration.between(killedAt, Instant.now()));
    }
}
