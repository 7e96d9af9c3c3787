package io.spillover.jobs;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Writes items that threads hand it in groups, as PostgreSQL's group commit shares one flush of its log among the
 * transactions that wait for it. A thread that finds no write running writes every item waiting (its own among them)
 * in one call of the write; the threads that hand items meanwhile wait, and the next of them writes them all together.
 * Nothing waits on a timer: an item handed alone is written at once, and under load each write carries what arrived
 * during the last. The write stores its items all or none; when a group of several fails, each item is written again
 * alone, so that one item's failure (a name that another submission took first) is that item's alone.
 *
 * @param <T> what is written
 * @param <R> what writing one item gives back
 */
final class GroupWriter<T, R> {

    private final int most;
    private final Function<List<T>, List<R>> write;
    private final ArrayDeque<Handed<T, R>> waiting = new ArrayDeque<>();
    private boolean writing;

    /**
     * @param most  the most items one write carries
     * @param write stores the items given in one transaction, all or none, and gives back one result per item, in
     *              their order
     */
    GroupWriter(int most, Function<List<T>, List<R>> write) {
        if (most < 1) {
            throw new IllegalArgumentException("a write carries at least one item");
        }
        this.most = most;
        this.write = write;
    }

    /** Writes the item, alone or with others handed meanwhile; its result, or what its write threw. */
    R write(T item) {
        var mine = new Handed<T, R>(item);
        boolean interrupted = false;
        try {
            synchronized (this) {
                waiting.add(mine);
            }
            while (true) {
                List<Handed<T, R>> group;
                synchronized (this) {
                    while (!mine.done && writing) {
                        try {
                            wait();
                        } catch (InterruptedException e) {
                            interrupted = true; // the item is handed: another thread may be writing it now
                        }
                    }
                    if (mine.done) {
                        return mine.result();
                    }
                    writing = true;
                    group = new ArrayList<>(Math.min(most, waiting.size()));
                    while (group.size() < most && !waiting.isEmpty()) {
                        group.add(waiting.poll());
                    }
                }
                try {
                    writeAll(group);
                } finally {
                    synchronized (this) {
                        writing = false;
                        notifyAll();
                    }
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** How many items wait for a write to take them (a write running holds those it took). */
    synchronized int waiting() {
        return waiting.size();
    }

    /** Writes the group in one write; each alone when a group of several fails. Every item of it ends done. */
    private void writeAll(List<Handed<T, R>> group) {
        try {
            List<R> results = write.apply(group.stream().map(Handed::item).toList());
            if (results.size() != group.size()) {
                throw new IllegalStateException("a write of " + group.size() + " gave " + results.size() + " results");
            }
            for (int i = 0; i < group.size(); i++) {
                group.get(i).succeeded(results.get(i));
            }
        } catch (RuntimeException | Error failure) {
            if (group.size() == 1) {
                group.get(0).failed(failure);
                return;
            }
            for (Handed<T, R> handed : group) {
                try {
                    handed.succeeded(write.apply(List.of(handed.item())).get(0));
                } catch (RuntimeException | Error alone) {
                    handed.failed(alone);
                }
            }
        }
    }

    /** An item handed to be written, and once done its result or failure, which the writer's lock hands between threads. */
    private static final class Handed<T, R> {

        private final T item;
        private R result;
        private Throwable failure;
        private boolean done;

        Handed(T item) {
            this.item = item;
        }

        T item() {
            return item;
        }

        void succeeded(R result) {
            this.result = result;
            done = true;
        }

        void failed(Throwable failure) {
            this.failure = failure;
            done = true;
        }

        R result() {
            if (failure instanceof RuntimeException e) {
                throw e;
            }
            if (failure instanceof Error e) {
                throw e;
            }
            return result;
        }
    }
}
