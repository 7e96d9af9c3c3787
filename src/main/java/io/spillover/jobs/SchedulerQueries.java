package io.spillover.jobs;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** What the scheduler asks of jobs for its timers, its limits and its reconciliation with the provider. */
@Repository
public class SchedulerQueries {

    private static final String MEANT_TO_RUN = JobStatus.statusIn(JobStatus.MEANT_TO_RUN);
    private static final String ON_PROVIDER = JobStatus.statusIn(JobStatus.ON_PROVIDER);

    private final JdbcClient jdbc;

    SchedulerQueries(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** Pending jobs whose maximum pending time ran out by {@code now}. */
    public List<UUID> pendingPastDeadline(Instant now) {
        return jdbc.sql("SELECT id FROM jobs WHERE status = 'PENDING' AND pending_deadline <= ? ORDER BY pending_deadline")
                .param(Timestamp.from(now)).query(UUID.class).list();
    }

    /** Jobs starting or running on capacity of a source ({@code plan:<name>}). */
    public List<UUID> onSource(String source) {
        return jdbc.sql("SELECT id FROM jobs WHERE " + MEANT_TO_RUN + " AND selected_source = ?")
                .param(source).query(UUID.class).list();
    }

    /** Jobs on the provider past their maximum run time by {@code now}. */
    public List<UUID> runningPastLimit(Instant now) {
        return jdbc.sql("SELECT id FROM jobs WHERE " + MEANT_TO_RUN + " AND runtime_deadline <= ?")
                .param(Timestamp.from(now)).query(UUID.class).list();
    }

    /** The next moment a pending deadline or a run-time limit falls due. */
    public Optional<Instant> nextDeadline() {
        return jdbc.sql("SELECT least((SELECT min(pending_deadline) FROM jobs WHERE status = 'PENDING'),"
                        + " (SELECT min(runtime_deadline) FROM jobs WHERE " + MEANT_TO_RUN + "))")
                .query(Timestamp.class).optional().map(Timestamp::toInstant);
    }

    /** Jobs on the provider, for reconciling with it when a scheduler takes over. */
    public List<LiveAttempt> liveAttempts() {
        return jdbc.sql("SELECT id, attempt, status, provider_job_name FROM jobs WHERE " + ON_PROVIDER)
                .query((rs, n) -> new LiveAttempt(rs.getObject("id", UUID.class), rs.getInt("attempt"),
                        JobStatus.valueOf(rs.getString("status")), rs.getString("provider_job_name")))
                .list();
    }

    public record LiveAttempt(UUID jobId, int attempt, JobStatus status, String providerJobName) {
    }
}
