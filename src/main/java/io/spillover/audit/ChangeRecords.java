package io.spillover.audit;

import io.spillover.shared.ConflictException;
import io.spillover.shared.ForbiddenException;
import io.spillover.shared.InvalidRequestException;
import io.spillover.shared.NotFoundException;
import org.springframework.stereotype.Component;
import org.springframework.transaction.TransactionExecution;
import org.springframework.transaction.TransactionExecutionListener;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Writes the record of an audited change in the transaction that commits it: the first read-write
 * transaction to commit while the change runs. Services keep their own transactions (jobs retry theirs
 * on conflicts), and still a change that rolls back leaves no "done" record, and one that commits cannot
 * lose its record. A change that commits nothing (a retried submission answered from the first) or
 * fails is recorded on its own once it is over, with its outcome.
 */
@Component
public class ChangeRecords implements TransactionExecutionListener {

    /** The outcome of a change that went through. */
    public static final String DONE = "done";

    private static final ThreadLocal<Pending> PENDING = new ThreadLocal<>();

    private final AuditLog log;

    ChangeRecords(AuditLog log) {
        this.log = log;
    }

    /** Work that may throw anything, as an intercepted method does. */
    @FunctionalInterface
    public interface Work {
        Object run() throws Throwable;
    }

    /** Runs the change, recording {@code attempt} (whose outcome is filled in) exactly once. */
    public Object record(AuditEntry attempt, Work change) throws Throwable {
        if (PENDING.get() != null) {
            return change.run(); // part of a change that is being recorded already
        }
        Pending pending = new Pending(attempt);
        PENDING.set(pending);
        try {
            if (TransactionSynchronizationManager.isSynchronizationActive()
                    && !TransactionSynchronizationManager.isCurrentTransactionReadOnly()) {
                pending.join();
            }
            Object result = change.run();
            pending.writeUnlessWritten(DONE);
            return result;
        } catch (Throwable failure) {
            pending.writeUnlessWritten(outcome(failure));
            throw failure;
        } finally {
            PENDING.remove();
        }
    }

    @Override
    public void afterBegin(TransactionExecution transaction, Throwable beginFailure) {
        Pending pending = PENDING.get();
        if (pending != null && beginFailure == null && !transaction.isReadOnly()) {
            pending.join();
        }
    }

    static String outcome(Throwable failure) {
        if (failure instanceof ForbiddenException) {
            return "refused";
        }
        if (failure instanceof NotFoundException) {
            return "not found";
        }
        if (failure instanceof InvalidRequestException) {
            return "invalid";
        }
        if (failure instanceof ConflictException) {
            return "conflict";
        }
        return "failed";
    }

    /** The record of one change in progress, riding along with the transaction it joined. */
    private final class Pending implements TransactionSynchronization {

        private final AuditEntry attempt;
        private boolean joined;
        private boolean written;

        Pending(AuditEntry attempt) {
            this.attempt = attempt;
        }

        void join() {
            if (!joined && !written) {
                TransactionSynchronizationManager.registerSynchronization(this);
                joined = true;
            }
        }

        void writeUnlessWritten(String outcome) {
            if (!written) {
                log.record(attempt.withOutcome(outcome));
                written = true;
            }
        }

        @Override
        public void beforeCommit(boolean readOnly) {
            writeUnlessWritten(DONE);
        }

        @Override
        public void afterCompletion(int status) {
            joined = false;
            if (status != STATUS_COMMITTED) {
                written = false; // the record went with the rollback; a retry or the failure writes it again
            }
        }
    }
}
