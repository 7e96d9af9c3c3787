package io.spillover.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillover.catalog.JobKind;
import io.spillover.placement.PlacementRequest;
import io.spillover.placement.PreferenceEntry;
import io.spillover.placement.PreferenceList;
import io.spillover.placement.QueuedRequest;
import io.spillover.support.ApiTest;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Queue order has one definition in Java ({@link QueuedRequest#queueOrder()}, used by the placement core and the
 * replay) and its SQL form ({@link PendingJobs#QUEUE_ORDER}); PostgreSQL must sort as Java does, ties and ids
 * whose first bit differs included (Java's {@code UUID.compareTo} compares signed halves, PostgreSQL bytes).
 */
class QueueOrderTest extends ApiTest {

    private static final Instant T = Instant.parse("2026-12-03T10:00:00Z");

    @Autowired
    JdbcClient jdbc;

    @Test
    void postgresqlAndTheCoreOrderTheQueueAlikeTiesIncluded() {
        var random = new SplittableRandom(42);
        var jobs = new ArrayList<QueuedRequest<UUID>>();
        jobs.add(job(UUID.fromString("7fffffff-ffff-ffff-ffff-ffffffffffff"), 0, T));
        jobs.add(job(UUID.fromString("80000000-0000-0000-0000-000000000000"), 0, T));
        jobs.add(job(UUID.fromString("00000000-0000-0000-8000-000000000000"), 0, T));
        jobs.add(job(UUID.fromString("00000000-0000-0000-7fff-ffffffffffff"), 0, T));
        for (int i = 0; i < 200; i++) {
            // few priorities and times, so most jobs tie on both and the id decides
            jobs.add(job(new UUID(random.nextLong(), random.nextLong()), random.nextInt(3) - 1,
                    T.plusSeconds(random.nextInt(3))));
        }

        List<UUID> java = jobs.stream().sorted(QueuedRequest.queueOrder()).map(QueuedRequest::id).toList();
        String rows = jobs.stream().map(j -> "('%s'::uuid, %d, '%s'::timestamptz)".formatted(j.id(), j.priority(),
                Timestamp.from(j.submittedAt()).toInstant())).collect(Collectors.joining(", "));
        List<UUID> sql = jdbc.sql("SELECT j.id FROM (VALUES " + rows + ") AS j(id, priority, created_at) ORDER BY "
                + PendingJobs.QUEUE_ORDER).query(UUID.class).list();

        assertThat(sql).isEqualTo(java);
        assertThat(java.indexOf(UUID.fromString("7fffffff-ffff-ffff-ffff-ffffffffffff")))
                .isLessThan(java.indexOf(UUID.fromString("80000000-0000-0000-0000-000000000000")));
    }

    private static QueuedRequest<UUID> job(UUID id, int priority, Instant at) {
        return new QueuedRequest<>(id, new PlacementRequest("vision", JobKind.TRAINING,
                new PreferenceList(List.of(new PreferenceEntry("ml.m5.xlarge", 1, "us-east-1", null)))), priority, at);
    }
}
