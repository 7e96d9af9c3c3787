package io.spillover.jobs;

import io.spillover.placement.OfferingKey;
import io.spillover.placement.PreferenceEntry;
import io.spillover.placement.RunningPlacement;
import io.spillover.tenancy.SharingProperties;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The jobs holding instances now, as a forecast of the queue needs them: what each holds and what is known of its run. */
@Repository
public class RunningJobs {

    /**
     * A job on the provider.
     *
     * @param entry     the entry it holds (its selected type, count, region and plan)
     * @param startedAt when it began running; null while it starts
     * @param stopping  being stopped: its instances come back as soon as the provider confirms
     * @param hint      its user's expected run ({@code expectedRuntimeSeconds}), null for none
     * @param placement the same job as a reclaim chooses from it ({@link #placements})
     */
    public record RunningJob(UUID id, String team, String profile, UUID sweep, PreferenceEntry entry, Instant startedAt,
                             boolean stopping, Duration maxRuntime, Duration hint, RunningPlacement placement) {
    }

    private final JdbcClient jdbc;
    private final SharingProperties sharing;

    RunningJobs(JdbcClient jdbc, SharingProperties sharing) {
        this.jdbc = jdbc;
        this.sharing = sharing;
    }

    /**
     * Every placement holding instances (starting, running or stopping), as a reclaim chooses from them: whether it
     * borrowed, whether it may still be preempted ({@code spillover.sharing.max-preemptions}), and since when it is
     * being stopped. A job still starting counts as started {@code now}: its minimum run has not begun.
     */
    public List<RunningPlacement> placements(Instant now) {
        return jdbc.sql("""
                        SELECT id, team, priority, started_at, max_runtime_seconds, selected_type, selected_count,
                               selected_region, selected_source, borrowed_instances, preemptible, preemptions,
                               stopping_since
                          FROM jobs
                         WHERE %s AND selected_type IS NOT NULL
                         ORDER BY id""".formatted(JobStatus.statusIn(JobStatus.ON_PROVIDER)))
                .query((rs, n) -> placement(rs, now)).list();
    }

    private RunningPlacement placement(ResultSet rs, Instant now) throws SQLException {
        Timestamp started = rs.getTimestamp("started_at");
        Timestamp stopping = rs.getTimestamp("stopping_since");
        return new RunningPlacement(rs.getObject("id", UUID.class).toString(), rs.getString("team"),
                new OfferingKey(rs.getString("selected_region"), rs.getString("selected_type"),
                        rs.getString("selected_source")),
                rs.getInt("selected_count"), rs.getInt("priority"), started == null ? now : started.toInstant(),
                rs.getInt("borrowed_instances") > 0,
                sharing.preemptible(rs.getBoolean("preemptible"), rs.getInt("preemptions")),
                seconds(rs.getObject("max_runtime_seconds", Long.class)), rs.getInt("preemptions"),
                stopping == null ? null : stopping.toInstant());
    }

    /** Every job on the provider, as a forecast starts from it; {@code now} as {@link #placements} takes it. */
    public List<RunningJob> all(Instant now) {
        return jdbc.sql("""
                        SELECT id, team, profile_name, sweep_id, status, started_at, max_runtime_seconds,
                               CAST(spec ->> 'expectedRuntimeSeconds' AS bigint) AS expected_runtime_seconds,
                               selected_type, selected_count, selected_region, selected_source, priority,
                               borrowed_instances, preemptible, preemptions, stopping_since
                          FROM jobs
                         WHERE %s AND selected_type IS NOT NULL
                         ORDER BY id""".formatted(JobStatus.statusIn(JobStatus.ON_PROVIDER)))
                .query((rs, n) -> {
                    Timestamp started = rs.getTimestamp("started_at");
                    String source = rs.getString("selected_source");
                    String plan = source != null && !OfferingKey.ON_DEMAND.equals(source)
                            ? new OfferingKey(rs.getString("selected_region"), rs.getString("selected_type"), source)
                            .planName() : null;
                    return new RunningJob(rs.getObject("id", UUID.class), rs.getString("team"),
                            rs.getString("profile_name"), rs.getObject("sweep_id", UUID.class),
                            new PreferenceEntry(rs.getString("selected_type"), rs.getInt("selected_count"),
                                    rs.getString("selected_region"), plan),
                            started == null ? null : started.toInstant(),
                            JobStatus.valueOf(rs.getString("status")) == JobStatus.STOPPING,
                            seconds(rs.getObject("max_runtime_seconds", Long.class)),
                            seconds(rs.getObject("expected_runtime_seconds", Long.class)), placement(rs, now));
                }).list();
    }

    private static Duration seconds(Long seconds) {
        return seconds == null ? null : Duration.ofSeconds(seconds);
    }
}
