package io.spillover.jobs;

import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/**
 * Stores submitted jobs: each job's row, its entries and its first transition, for one job or a batch, in one
 * statement and one round trip. A submission is the service's most frequent write, and through JPA it took a
 * statement per table and a flush (a third of a submission's time on the request thread, and the database's work
 * for each statement on the same cores). Jobs are read back through JPA ({@link Jobs}) as before;
 * {@code JobSubmissionsTest} holds the two to the same job.
 */
@Repository
class NewJobs {

    private static final JobSpecConverter SPECS = new JobSpecConverter();

    // Data-modifying CTEs run as one statement: the entries' and transitions' references to their jobs are checked
    // at its end. A multi-row insert fires the sweep trigger (V9) row by row, each row seeing the rows before it, as
    // a batch of single inserts did.
    private static final String INSERT = """
            WITH job AS (
                INSERT INTO jobs (id, team, name, kind, status, status_reason, status_message, instance_count,
                                  max_pending_seconds, max_runtime_seconds, priority, client_token, spec, preemptible,
                                  created_at, pending_deadline, profile_name, profile_version, sweep_key)
                SELECT u.id, u.team, u.name, u.kind, u.status, u.reason, u.message, u.instance_count,
                       u.max_pending, u.max_runtime, u.priority, u.client_token, CAST(u.spec AS jsonb), u.preemptible,
                       u.created_at, u.pending_deadline, u.profile_name, u.profile_version, u.sweep_key
                  FROM unnest(CAST(:ids AS uuid[]), CAST(:teams AS text[]), CAST(:names AS text[]),
                              CAST(:kinds AS text[]), CAST(:tos AS text[]), CAST(:reasons AS text[]),
                              CAST(:messages AS text[]), CAST(:counts AS int[]),
                              CAST(:maxPendings AS bigint[]), CAST(:maxRuntimes AS bigint[]),
                              CAST(:priorities AS int[]), CAST(:clientTokens AS text[]), CAST(:specs AS text[]),
                              CAST(:preemptibles AS boolean[]), CAST(:createdAts AS timestamptz[]),
                              CAST(:deadlines AS timestamptz[]), CAST(:profileNames AS text[]),
                              CAST(:profileVersions AS int[]), CAST(:sweepKeys AS text[]))
                       AS u(id, team, name, kind, status, reason, message, instance_count, max_pending, max_runtime, priority,
                            client_token, spec, preemptible, created_at, pending_deadline, profile_name,
                            profile_version, sweep_key)
            ), entry AS (
                INSERT INTO job_entries (job_id, idx, instance_type, instance_count, region, training_plan, team,
                                         priority, created_at)
                SELECT * FROM unnest(CAST(:entryJobs AS uuid[]), CAST(:entryIdx AS int[]),
                                     CAST(:entryTypes AS text[]), CAST(:entryCounts AS int[]),
                                     CAST(:entryRegions AS text[]), CAST(:entryPlans AS text[]),
                                     CAST(:entryTeams AS text[]), CAST(:entryPriorities AS int[]),
                                     CAST(:entryCreatedAts AS timestamptz[]))
            )
            INSERT INTO job_transitions (job_id, team, at, from_status, to_status, reason, message, attempt)
            SELECT * FROM unnest(CAST(:ids AS uuid[]), CAST(:teams AS text[]), CAST(:createdAts AS timestamptz[]),
                                 CAST(:froms AS text[]), CAST(:tos AS text[]), CAST(:reasons AS text[]),
                                 CAST(:transitionMessages AS text[]), CAST(:attempts AS int[]))
            RETURNING id, job_id""";

    private final JdbcClient jdbc;
    private final ApplicationEventPublisher events;

    NewJobs(JdbcClient jdbc, ApplicationEventPublisher events) {
        this.jdbc = jdbc;
        this.events = events;
    }

    /**
     * Stores the new jobs (as {@link Job#submit} made them, never stored) with their submission, and announces each
     * transition to the listeners that write with it or react after commit, as {@link JobHistory#append} does. A
     * stream of a job's events opened after it reads them from the log, so submissions are not sent to the streams.
     *
     * @return each job's first transition, in the order given
     */
    @Transactional(propagation = Propagation.MANDATORY)
    List<Transition> store(List<Job> jobs) {
        if (jobs.isEmpty()) {
            return List.of();
        }
        int n = jobs.size();
        var submitted = new ArrayList<Transition>(n);
        var entryJobs = new ArrayList<UUID>();
        var entryIdx = new ArrayList<Integer>();
        var entryTypes = new ArrayList<String>();
        var entryCounts = new ArrayList<Integer>();
        var entryRegions = new ArrayList<String>();
        var entryPlans = new ArrayList<String>();
        var entryTeams = new ArrayList<String>();
        var entryPriorities = new ArrayList<Integer>();
        var entryCreatedAts = new ArrayList<Timestamp>();
        for (Job job : jobs) {
            if (!job.isNew() || job.status() != JobStatus.PENDING || job.attempt() != 0) {
                throw new IllegalArgumentException("job " + job.name() + " is not a new submission");
            }
            submitted.add(job.submitted());
            var entries = job.preferences().entries();
            for (int i = 0; i < entries.size(); i++) {
                var entry = entries.get(i);
                entryJobs.add(job.id());
                entryIdx.add(i);
                entryTypes.add(entry.instanceType());
                entryCounts.add(entry.instanceCount());
                entryRegions.add(entry.region());
                entryPlans.add(entry.trainingPlan());
                entryTeams.add(job.team());
                entryPriorities.add(job.priority());
                entryCreatedAts.add(Timestamp.from(job.createdAt()));
            }
        }
        Map<UUID, Long> transitionIds = new HashMap<>();
        jdbc.sql(INSERT)
                .param("ids", jobs.stream().map(Job::id).toArray(UUID[]::new))
                .param("teams", jobs.stream().map(Job::team).toArray(String[]::new))
                .param("names", jobs.stream().map(Job::name).toArray(String[]::new))
                .param("kinds", jobs.stream().map(job -> job.kind().name()).toArray(String[]::new))
                .param("messages", jobs.stream().map(Job::statusMessage).toArray(String[]::new))
                .param("counts", jobs.stream().map(Job::instanceCount).toArray(Integer[]::new))
                .param("maxPendings", jobs.stream().map(Job::maxPendingSeconds).toArray(Long[]::new))
                .param("maxRuntimes", jobs.stream().map(Job::maxRuntimeSeconds).toArray(Long[]::new))
                .param("priorities", jobs.stream().map(Job::priority).toArray(Integer[]::new))
                .param("clientTokens", jobs.stream().map(Job::clientToken).toArray(String[]::new))
                .param("specs", jobs.stream().map(job -> SPECS.convertToDatabaseColumn(job.spec()))
                        .toArray(String[]::new))
                .param("preemptibles", jobs.stream().map(Job::preemptible).toArray(Boolean[]::new))
                .param("createdAts", jobs.stream().map(job -> Timestamp.from(job.createdAt())).toArray(Timestamp[]::new))
                .param("deadlines", jobs.stream().map(job -> Timestamp.from(job.pendingDeadline()))
                        .toArray(Timestamp[]::new))
                .param("profileNames", jobs.stream().map(job -> job.profile() == null ? null : job.profile().name())
                        .toArray(String[]::new))
                .param("profileVersions", jobs.stream()
                        .map(job -> job.profile() == null ? null : job.profile().version()).toArray(Integer[]::new))
                .param("sweepKeys", jobs.stream().map(Job::sweepKey).toArray(String[]::new))
                .param("entryJobs", entryJobs.toArray(UUID[]::new))
                .param("entryIdx", entryIdx.toArray(Integer[]::new))
                .param("entryTypes", entryTypes.toArray(String[]::new))
                .param("entryCounts", entryCounts.toArray(Integer[]::new))
                .param("entryRegions", entryRegions.toArray(String[]::new))
                .param("entryPlans", entryPlans.toArray(String[]::new))
                .param("entryTeams", entryTeams.toArray(String[]::new))
                .param("entryPriorities", entryPriorities.toArray(Integer[]::new))
                .param("entryCreatedAts", entryCreatedAts.toArray(Timestamp[]::new))
                .param("froms", submitted.stream().map(t -> t.from() == null ? null : t.from().name())
                        .toArray(String[]::new))
                .param("tos", submitted.stream().map(t -> t.to().name()).toArray(String[]::new))
                .param("reasons", submitted.stream().map(t -> t.reason().name()).toArray(String[]::new))
                .param("transitionMessages", submitted.stream().map(Transition::message).toArray(String[]::new))
                .param("attempts", submitted.stream().map(Transition::attempt).toArray(Integer[]::new))
                .query((rs, row) -> transitionIds.put(rs.getObject("job_id", UUID.class), rs.getLong("id")))
                .list();
        jobs.forEach(Job::stored);
        for (int i = 0; i < n; i++) {
            Transition t = submitted.get(i);
            events.publishEvent(new JobTransitioned(transitionIds.get(t.jobId()), TransitionView.of(t),
                    JobView.of(jobs.get(i), null)));
        }
        return submitted;
    }
}
