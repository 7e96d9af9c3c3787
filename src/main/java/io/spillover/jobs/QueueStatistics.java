package io.spillover.jobs;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import jakarta.annotation.PreDestroy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Keeps PostgreSQL's statistics of the queue's tables current after a burst of submissions. Autovacuum analyzes a
 * table only once a tenth of it changed and then only at its next round (a minute by default), and until then the
 * planner plans every statement on the jobs and their entries as if the burst had not happened: right after 10,000
 * jobs on one type, it took that type's entries for one row (issue 29). The scheduler's own reads do not depend on
 * the statistics (V14); the console's, the estimator's and the evaluations' statements do.
 *
 * <p>An analysis also makes PostgreSQL plan again the statements its connections keep prepared. Without one, the plan
 * a connection made for the evaluations' write while {@code latest_evaluations} was small (a hash join over the whole
 * table) served it for as long as autovacuum left the table alone: after 40,000 submissions into a service a minute
 * old, each cycle's write touched 1,500 buffers for its 17 jobs (8–9 ms); with the table analyzed, 230 for ten
 * (0.6 ms), and the next 8,000 submissions ran at 1,620/s against 1,240–1,380/s (issue 32). So every table with a
 * row per queued job is refreshed here.
 *
 * <p>Once the jobs submitted since the last analysis reach a quarter of the jobs that were pending then (and at least
 * {@value #BURST}), the tables are analyzed again in the background, at most once every two seconds, and only the
 * columns that queries filter, join or sort on: the specs and messages, most of what a row holds, are never
 * looked at by a plan. A burst so costs a handful of analyses however large it is, each of a bounded sample: a
 * smaller one than autovacuum's ({@value #SAMPLE_TARGET} against PostgreSQL's default of 100, so 7,500 rows a table
 * instead of 30,000). What the refresh must fix is row counts and frequencies that are orders of magnitude off (a
 * type taken for one row that has 10,000); a sample a quarter the size gets those right reading a quarter of the
 * rows, work that submissions share the cores with (a full-size analysis every 2,500 single submissions measured
 * about 0.2 ms of the database's time per submission, on shared cores; the smaller sample's saving was not measured
 * apart). Autovacuum's own analysis, at its own pace, still refines them.
 */
@Component
class QueueStatistics {

    private static final Logger log = LoggerFactory.getLogger(QueueStatistics.class);

    /** Jobs submitted since the last analysis that make the next one worth its cost (some tens of milliseconds). */
    static final int BURST = 1_000;
    /** How much the queue grows, against what was pending at the last analysis, before the next. */
    private static final double GROWTH = 0.25;
    private static final Duration SPACING = Duration.ofSeconds(2);
    /** The statistics target of the refresh: its sample is 300 times this many rows of each table. */
    static final int SAMPLE_TARGET = 25;
    private static final String ANALYZE = """
            ANALYZE jobs (id, team, status, priority, created_at, pending_deadline, runtime_deadline, selected_type,
                          selected_source, started_at, ended_at, sweep_id, sweep_key),
                    job_entries (job_id, instance_type, region, team, pending, instance_count, training_plan, priority,
                                 created_at),
                    latest_evaluations (job_id, created_at, evaluation_id),
                    job_estimates (job_id, team)""";

    private final JdbcClient jdbc;
    private final TransactionTemplate transactions;
    private final Clock clock;
    private final AtomicInteger submitted = new AtomicInteger();
    private final AtomicBoolean scheduled = new AtomicBoolean();
    private final ScheduledExecutorService analyst = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "spillover-queue-statistics");
        thread.setDaemon(true);
        return thread;
    });
    private volatile Instant lastAnalyzed = Instant.MIN;
    /** Jobs pending at the last analysis. */
    private volatile long known;

    QueueStatistics(JdbcClient jdbc, TransactionTemplate transactions, Clock clock) {
        this.jdbc = jdbc;
        this.transactions = transactions;
        this.clock = clock;
    }

    /** Counts jobs stored by the current transaction, once it commits. */
    void stored(int jobs) {
        if (TransactionSynchronizationManager.isSynchronizationActive()) {
            TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
                @Override
                public void afterCommit() {
                    count(jobs);
                }
            });
        } else {
            count(jobs);
        }
    }

    private void count(int jobs) {
        if (submitted.addAndGet(jobs) >= Math.max(BURST, GROWTH * known) && scheduled.compareAndSet(false, true)) {
            Instant now = clock.instant();
            Instant due = lastAnalyzed.plus(SPACING);
            long delay = due.isAfter(now) ? Duration.between(now, due).toMillis() : 0;
            analyst.schedule(this::analyze, delay, TimeUnit.MILLISECONDS);
        }
    }

    @PreDestroy
    void stop() {
        analyst.shutdownNow();
    }

    private void analyze() {
        int counted = submitted.getAndSet(0);
        scheduled.set(false);
        try {
            transactions.executeWithoutResult(tx -> {
                jdbc.sql("SELECT set_config('default_statistics_target', ?, true)").param(String.valueOf(SAMPLE_TARGET))
                        .query(String.class).single();
                jdbc.sql(ANALYZE).update();
            });
            known = jdbc.sql("SELECT count(*) FROM jobs WHERE status = 'PENDING'").query(Long.class).single();
            log.debug("Analyzed the queue's tables after {} submissions", counted);
        } catch (RuntimeException e) {
            log.warn("Could not analyze the queue's tables after {} submissions: {}", counted, e.getMessage());
        } finally {
            lastAnalyzed = clock.instant();
        }
    }
}
