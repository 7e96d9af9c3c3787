package io.spillover.audit;

import io.spillover.shared.ConflictException;
import io.spillover.shared.ForbiddenException;
import io.spillover.shared.InvalidRequestException;
import io.spillover.shared.NotFoundException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
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
 * fails is recorded on its own once it is over, with its outcome. A change whose write another thread makes (a
 * submission stored together with others that arrived with it) hands its record to that thread's transaction
 * ({@link #takeFromThread}, {@link #carry}), and the same holds.
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

    /** The record of a change, on its way to a transaction on another thread than the change's own. */
    public sealed interface Carried permits Pending {
    }

    /**
     * Takes the record of the change running on this thread off it, for a transaction on another thread to carry
     * ({@link #carry}): no transaction of this thread joins it from now on. If that transaction rolls back, the change
     * still records its outcome once it is over, as it does with its own. Empty outside a change, and when the record
     * rides with a transaction of this thread already.
     */
    public Optional<Carried> takeFromThread() {
        Pending pending = PENDING.get();
        if (pending == null || pending.joined) {
            return Optional.empty();
        }
        PENDING.remove();
        return Optional.of(pending);
    }

    /**
     * Joins a record taken from its change's thread to the transaction running on this one: written in it before it
     * commits. The change's thread must wait for the transaction to end before it goes on.
     */
    public void carry(Carried record) {
        if (!TransactionSynchronizationManager.isSynchronizationActive()) {
            throw new IllegalStateException("a record is carried by a transaction, and none is running");
        }
        ((Pending) record).join();
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
    private final class Pending implements Carried {

        private final AuditEntry attempt;
        private boolean joined;
        private boolean written;

        Pending(AuditEntry attempt) {
            this.attempt = attempt;
        }

        void join() {
            if (!joined && !written) {
                batch().add(this);
                joined = true;
            }
        }

        void writeUnlessWritten(String outcome) {
            if (!written) {
                log.record(attempt.withOutcome(outcome));
                written = true;
            }
        }

        void completed(boolean committed) {
            joined = false;
            if (!committed) {
                written = false; // the record went with the rollback; a retry or the failure writes it again
            }
        }
    }

    /**
     * The batch of the records that joined the running transaction: a transaction that commits the changes of a group
     * of submissions writes their records in one round trip. Looked up among the transaction's synchronizations, so
     * that a transaction suspended for another keeps its own.
     */
    private Batch batch() {
        for (TransactionSynchronization synchronization : TransactionSynchronizationManager.getSynchronizations()) {
            if (synchronization instanceof Batch batch && batch.owner() == this) {
                return batch;
            }
        }
        var batch = new Batch();
        TransactionSynchronizationManager.registerSynchronization(batch);
        return batch;
    }

    private final class Batch implements TransactionSynchronization {

        private final List<Pending> records = new ArrayList<>();

        ChangeRecords owner() {
            return ChangeRecords.this;
        }

        void add(Pending record) {
            records.add(record);
        }

        @Override
        public void beforeCommit(boolean readOnly) {
            List<Pending> unwritten = records.stream().filter(record -> !record.written).toList();
            if (!unwritten.isEmpty()) {
                log.recordAll(unwritten.stream().map(record -> record.attempt.withOutcome(DONE)).toList());
                unwritten.forEach(record -> record.written = true);
            }
        }

        @Override
        public void afterCompletion(int status) {
            records.forEach(record -> record.completed(status == STATUS_COMMITTED));
        }
    }
}
