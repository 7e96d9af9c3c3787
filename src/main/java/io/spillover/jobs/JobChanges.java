package io.spillover.jobs;

import java.time.Clock;
import java.time.Instant;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.orm.ObjectOptimisticLockingFailureException;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Runs a change of one job in its own transaction, again when a concurrent change of the same job won (the
 * scheduler placing it while a user stops it, say): each try reads the job afresh, and the transition the
 * change answers is logged with it. A refused counter is the same race seen first from the capacity side: two
 * reports of one end (the provider's watch and the reconciling sweep, or two instances) both read the job
 * holding capacity, and the loser's release would take a use counter below zero.
 */
@Component
class JobChanges {

    static final int CONFLICT_RETRIES = 3;
    private static final Logger log = LoggerFactory.getLogger(JobChanges.class);

    private final Jobs jobs;
    private final JobHistory history;
    private final TransactionTemplate transactions;
    private final Clock clock;

    JobChanges(Jobs jobs, JobHistory history, TransactionTemplate transactions, Clock clock) {
        this.jobs = jobs;
        this.history = history;
        this.transactions = transactions;
        this.clock = clock;
    }

    /** A change of a job read afresh; it answers the transition to log, or null when it changed nothing. */
    @FunctionalInterface
    interface Change {
        Transition apply(Job job, Instant now);
    }

    void change(UUID jobId, Change change) {
        retried(() -> apply(jobs.findById(jobId).orElseThrow(), change));
    }

    /** Changes the job whose current attempt has this name; nothing when no job's current attempt has it. */
    void changeAttempt(String providerJobName, Change change) {
        retried(() -> jobs.findByProviderJobName(providerJobName).ifPresentOrElse(job -> apply(job, change),
                () -> log.debug("Ignoring report on {}: no current attempt of that name", providerJobName)));
    }

    private void apply(Job job, Change change) {
        Transition transition = change.apply(job, clock.instant());
        if (transition != null) {
            history.append(transition, job);
        }
    }

    private void retried(Runnable change) {
        for (int attempt = 1; ; attempt++) {
            try {
                transactions.executeWithoutResult(status -> change.run());
                return;
            } catch (ObjectOptimisticLockingFailureException | DataIntegrityViolationException e) {
                if (attempt == CONFLICT_RETRIES) {
                    throw e;
                }
                log.debug("Job changed concurrently; trying again", e);
            }
        }
    }
}
