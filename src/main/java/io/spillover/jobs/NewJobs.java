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
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Stores submitted jobs: each job's row, its entries and its first transition, for one job or a batch, in one
 * statement and one round trip. A submission is the service's most frequent write, and through JPA it took a
 * statement per table and a flush (a third of a submission's time on the request thread, and the database's work
 * for each statement on the same cores). Jobs are read back through JPA ({@link Jobs}) as before;
 * {@code StoredSubmissionTest} holds the two to the same job.
 */
@Repository
class NewJobs {

    private static final JobSpecConverter SPECS = new JobSpecConverter();

    // Data-modifying CTEs run as one statement: the entries' and transitions' references to their jobs are checked
    // at its end. A multi-row insert fires the sweep trigger (V9) row by row, each row seeing the rows before it, as
    // a batch of single inserts did. The parameters are arrays, one element per job (per entry for the entries), bound
    // in the order of the column lists below.
    private static final String INSERT = """
            WITH job AS (
                INSERT INTO jobs (id, team, name, kind, status, status_reason, status_message, instance_count,
                                  max_pending_seconds, max_runtime_seconds, priority, client_token, spec, preemptible,
                                  created_at, pending_deadline, profile_name, profile_version, sweep_key)
                SELECT u.id, u.team, u.name, u.kind, u.status, u.reason, u.message, u.instance_count,
                       u.max_pending, u.max_runtime, u.priority, u.client_token, CAST(u.spec AS jsonb), u.preemptible,
                       u.created_at, u.pending_deadline, u.profile_name, u.profile_version, u.sweep_key
                  FROM unnest(CAST(? AS uuid[]), CAST(? AS text[]), CAST(? AS text[]),
                              CAST(? AS text[]), CAST(? AS text[]), CAST(? AS text[]),
                              CAST(? AS text[]), CAST(? AS int[]),
                              CAST(? AS bigint[]), CAST(? AS bigint[]),
                              CAST(? AS int[]), CAST(? AS text[]), CAST(? AS text[]),
                              CAST(? AS boolean[]), CAST(? AS timestamptz[]),
                              CAST(? AS timestamptz[]), CAST(? AS text[]),
                              CAST(? AS int[]), CAST(? AS text[]))
                       AS u(id, team, name, kind, status, reason, message, instance_count, max_pending, max_runtime,
                            priority, client_token, spec, preemptible, created_at, pending_deadline, profile_name,
                            profile_version, sweep_key)
                RETURNING id, created_at
            ), latest AS (
                INSERT INTO latest_evaluations (job_id, created_at) SELECT id, created_at FROM job
            ), entry AS (
                INSERT INTO job_entries (job_id, idx, instance_type, instance_count, region, training_plan, team,
                                         priority, created_at)
                SELECT * FROM unnest(CAST(? AS uuid[]), CAST(? AS int[]),
                                     CAST(? AS text[]), CAST(? AS int[]),
                                     CAST(? AS text[]), CAST(? AS text[]),
                                     CAST(? AS text[]), CAST(? AS int[]),
                                     CAST(? AS timestamptz[]))
            )
            INSERT INTO job_transitions (job_id, team, at, from_status, to_status, reason, message, attempt)
            SELECT * FROM unnest(CAST(? AS uuid[]), CAST(? AS text[]), CAST(? AS timestamptz[]),
                                 CAST(? AS text[]), CAST(? AS text[]), CAST(? AS text[]),
                                 CAST(? AS text[]), CAST(? AS int[]))
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
        var ids = new UUID[n];
        var teams = new String[n];
        var names = new String[n];
        var kinds = new String[n];
        var statuses = new String[n];
        var reasons = new String[n];
        var messages = new String[n];
        var counts = new Integer[n];
        var maxPendings = new Long[n];
        var maxRuntimes = new Long[n];
        var priorities = new Integer[n];
        var clientTokens = new String[n];
        var specs = new String[n];
        var preemptibles = new Boolean[n];
        var createdAts = new Timestamp[n];
        var deadlines = new Timestamp[n];
        var profileNames = new String[n];
        var profileVersions = new Integer[n];
        var sweepKeys = new String[n];
        var froms = new String[n];
        var tos = new String[n];
        var transitionReasons = new String[n];
        var transitionMessages = new String[n];
        var attempts = new Integer[n];
        var entries = new Entries();
        for (int i = 0; i < n; i++) {
            Job job = jobs.get(i);
            if (!job.isNew() || job.status() != JobStatus.PENDING || job.attempt() != 0) {
                throw new IllegalArgumentException("job " + job.name() + " is not a new submission");
            }
            Transition t = job.submitted();
            submitted.add(t);
            ids[i] = job.id();
            teams[i] = job.team();
            names[i] = job.name();
            kinds[i] = job.kind().name();
            statuses[i] = job.status().name();
            reasons[i] = job.statusReason().name();
            messages[i] = job.statusMessage();
            counts[i] = job.instanceCount();
            maxPendings[i] = job.maxPendingSeconds();
            maxRuntimes[i] = job.maxRuntimeSeconds();
            priorities[i] = job.priority();
            clientTokens[i] = job.clientToken();
            specs[i] = SPECS.convertToDatabaseColumn(job.spec());
            preemptibles[i] = job.preemptible();
            createdAts[i] = Timestamp.from(job.createdAt());
            deadlines[i] = Timestamp.from(job.pendingDeadline());
            profileNames[i] = job.profile() == null ? null : job.profile().name();
            profileVersions[i] = job.profile() == null ? null : job.profile().version();
            sweepKeys[i] = job.sweepKey();
            froms[i] = t.from() == null ? null : t.from().name();
            tos[i] = t.to().name();
            transitionReasons[i] = t.reason().name();
            transitionMessages[i] = t.message();
            attempts[i] = t.attempt();
            entries.add(job, createdAts[i]);
        }
        Map<UUID, Long> transitionIds = new HashMap<>();
        jdbc.sql(INSERT)
                .params(ids, teams, names, kinds, statuses, reasons, messages, counts, maxPendings, maxRuntimes,
                        priorities, clientTokens, specs, preemptibles, createdAts, deadlines, profileNames,
                        profileVersions, sweepKeys,
                        entries.jobs.toArray(UUID[]::new), entries.indexes.toArray(Integer[]::new),
                        entries.types.toArray(String[]::new), entries.counts.toArray(Integer[]::new),
                        entries.regions.toArray(String[]::new), entries.plans.toArray(String[]::new),
                        entries.teams.toArray(String[]::new), entries.priorities.toArray(Integer[]::new),
                        entries.createdAts.toArray(Timestamp[]::new),
                        ids, teams, createdAts, froms, tos, transitionReasons, transitionMessages, attempts)
                .query((rs, row) -> transitionIds.put(rs.getObject("job_id", UUID.class), rs.getLong("id")))
                .list();
        TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
            @Override
            public void afterCompletion(int status) {
                if (status != STATUS_COMMITTED) {
                    jobs.forEach(Job::storeRolledBack); // so that a retry, alone or in another group, stores them
                }
            }
        });
        for (int i = 0; i < n; i++) {
            Job job = jobs.get(i);
            job.stored();
            Transition t = submitted.get(i);
            events.publishEvent(new JobTransitioned(transitionIds.get(t.jobId()), TransitionView.of(t),
                    JobView.of(job, null)));
        }
        return submitted;
    }

    /** The entries of the jobs stored, column by column. */
    private static final class Entries {
        final List<UUID> jobs = new ArrayList<>();
        final List<Integer> indexes = new ArrayList<>();
        final List<String> types = new ArrayList<>();
        final List<Integer> counts = new ArrayList<>();
        final List<String> regions = new ArrayList<>();
        final List<String> plans = new ArrayList<>();
        final List<String> teams = new ArrayList<>();
        final List<Integer> priorities = new ArrayList<>();
        final List<Timestamp> createdAts = new ArrayList<>();

        void add(Job job, Timestamp createdAt) {
            var list = job.preferences().entries();
            for (int i = 0; i < list.size(); i++) {
                var entry = list.get(i);
                jobs.add(job.id());
                indexes.add(i);
                types.add(entry.instanceType());
                counts.add(entry.instanceCount());
                regions.add(entry.region());
                plans.add(entry.trainingPlan());
                teams.add(job.team());
                priorities.add(job.priority());
                createdAts.add(createdAt);
            }
        }
    }
}
