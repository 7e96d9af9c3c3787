package io.spillover.whatif;

import io.spillover.placement.QueuePolicy;
import io.spillover.replay.Fleet;
import io.spillover.replay.Holding;
import io.spillover.replay.Policy;
import io.spillover.replay.PolicyRun;
import io.spillover.replay.Progress;
import io.spillover.replay.QueueReplay;
import io.spillover.replay.ReplayJob;
import io.spillover.shared.ConflictException;
import io.spillover.system.RepeatingTask;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Component;

/**
 * Replays what-if runs in the background, on workers of their own ({@link WhatIfProperties}): never on a request's
 * thread or the scheduler's, at low priority, and at most so many waiting. A run replays the baseline, then the
 * change, on the same jobs; its progress (the share of both replays' jobs started) is written as it goes, at most a
 * few times a second, and announced to the pages that show it. Every so often the runs of this instance are marked
 * alive, and unfinished runs that nobody marks any more (their instance died) are failed, so none waits for ever.
 */
@Component
class WhatIfRunner extends RepeatingTask {

    private static final Logger log = LoggerFactory.getLogger(WhatIfRunner.class);
    static final Duration HEARTBEAT = Duration.ofSeconds(30);
    static final Duration ABANDONED_AFTER = Duration.ofMinutes(3);
    /** How often progress is written and announced at most. */
    static final long PROGRESS_NANOS = Duration.ofMillis(200).toNanos();

    /** What one run replays: both sides, their jobs as each asks, and what runs from before hold at the start. */
    record Work(Scenario baseline, Scenario change, List<ReplayJob> baselineJobs, List<ReplayJob> changedJobs,
                List<Holding> holdings) {
    }

    /** One run handed to the workers; told so when they stop before it began. */
    private final class Task implements Runnable {

        private final UUID id;
        private final Work work;

        Task(UUID id, Work work) {
            this.id = id;
            this.work = work;
        }

        @Override
        public void run() {
            WhatIfRunner.this.run(id, work);
        }

        void notStarted() {
            mine.remove(id);
            places.release();
            fail(id, "not started: the service stopped before a worker was free; start it again");
        }
    }

    private final WhatIfRuns runs;
    private final ApplicationEventPublisher events;
    private final Clock clock;
    private final int concurrency;
    private final Semaphore places;
    private final Set<UUID> mine = ConcurrentHashMap.newKeySet();
    private final AtomicInteger threads = new AtomicInteger();
    /** Made when the service starts and shut down when it stops (it may start again: tests pause contexts). */
    private volatile ExecutorService workers;

    WhatIfRunner(WhatIfRuns runs, ApplicationEventPublisher events, Clock clock, WhatIfProperties properties) {
        super("what-if-watch");
        this.runs = runs;
        this.events = events;
        this.clock = clock;
        this.concurrency = properties.concurrency();
        this.places = new Semaphore(properties.concurrency() + properties.waiting());
    }

    /**
     * Takes a place for a run about to be stored, or refuses it.
     *
     * @throws ConflictException when as many runs as allowed replay or wait already
     */
    void reserve() {
        if (!places.tryAcquire()) {
            throw new ConflictException("as many what-if runs as allowed are replaying or waiting; start this one"
                    + " when one of them has finished");
        }
    }

    /** Gives back a place taken for a run that was not stored after all. */
    void release() {
        places.release();
    }

    /** Replays a stored run, whose place was reserved, as soon as a worker is free. */
    void submit(UUID id, Work work) {
        mine.add(id);
        var task = new Task(id, work);
        ExecutorService current = workers;
        if (current == null) {
            task.notStarted();
            return;
        }
        try {
            current.execute(task);
        } catch (RejectedExecutionException stopping) {
            task.notStarted();
        }
    }

    private void run(UUID id, Work work) {
        try {
            runs.running(id, clock.instant());
            announce(id, WhatIfStatus.RUNNING, 0);
            Figures baseline = replay(id, "baseline", work.baseline(), work.baselineJobs(), work.holdings(), 0);
            Figures change = replay(id, "change", work.change(), work.changedJobs(), work.holdings(), 1);
            runs.done(id, new WhatIfView.Sides<>(baseline, change), clock.instant());
            announce(id, WhatIfStatus.DONE, 1);
        } catch (CancellationException e) {
            fail(id, "interrupted: the service stopped while it replayed; start it again");
        } catch (RuntimeException | StackOverflowError | OutOfMemoryError e) {
            log.error("What-if run {} failed", id, e);
            fail(id, "failed: " + e);
        } finally {
            mine.remove(id);
            places.release();
        }
    }

    private Figures replay(UUID id, String side, Scenario scenario, List<ReplayJob> jobs, List<Holding> holdings,
                           int sides) {
        Fleet fleet = scenario.fleet();
        QueuePolicy policy = scenario.policy();
        var queued = new Policy.Queued(side, "the " + side + "'s queue policy", policy, Policy.Knowledge.HISTORY);
        PolicyRun run = new QueueReplay(fleet, false).run(queued, jobs, holdings, progress(id, sides));
        return Figures.of(run, fleet);
    }

    /** Writes and announces progress at most every {@link #PROGRESS_NANOS}; stops the replay when interrupted. */
    private Progress progress(UUID id, int sidesDone) {
        long[] last = {System.nanoTime()};
        return (started, of) -> {
            if (Thread.currentThread().isInterrupted()) {
                throw new CancellationException("interrupted");
            }
            long now = System.nanoTime();
            if (now - last[0] >= PROGRESS_NANOS) {
                last[0] = now;
                double progress = (sidesDone + (double) started / of) / 2;
                runs.progress(id, progress, clock.instant());
                announce(id, WhatIfStatus.RUNNING, progress);
            }
        };
    }

    private void fail(UUID id, String error) {
        try {
            runs.failed(id, error, clock.instant());
            announce(id, WhatIfStatus.FAILED, 0);
        } catch (RuntimeException e) {
            log.warn("Could not record that what-if run {} {}: {}", id, error, e.getMessage());
        }
    }

    private void announce(UUID id, WhatIfStatus status, double progress) {
        events.publishEvent(new WhatIfProgressed(id, status, progress));
    }

    @Override
    protected Optional<Duration> interval() {
        return Optional.of(HEARTBEAT);
    }

    @Override
    protected void runOnce() {
        try {
            Instant now = clock.instant();
            runs.heartbeat(mine, now);
            int abandoned = runs.abandon(now.minus(ABANDONED_AFTER), now);
            if (abandoned > 0) {
                log.warn("{} what-if run(s) failed as abandoned: no instance has marked them alive since {}",
                        abandoned, now.minus(ABANDONED_AFTER));
            }
        } catch (RuntimeException e) {
            log.warn("What-if heartbeat failed: {}", e.getMessage());
        }
    }

    @Override
    public void start() {
        workers = Executors.newFixedThreadPool(concurrency, task -> {
            Thread thread = new Thread(task, "what-if-" + threads.incrementAndGet());
            thread.setDaemon(true);
            thread.setPriority(Thread.MIN_PRIORITY);
            return thread;
        });
        super.start();
    }

    /**
     * Interrupts the replays going on, which then fail saying so, fails the runs still waiting for a worker, and
     * waits a moment for that to be recorded.
     */
    @Override
    public void stop() {
        super.stop();
        ExecutorService stopping = workers;
        workers = null;
        if (stopping == null) {
            return;
        }
        for (Runnable waiting : stopping.shutdownNow()) {
            if (waiting instanceof Task task) {
                task.notStarted();
            }
        }
        try {
            stopping.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
