package io.spillover.estimates;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.spillover.catalog.Catalog;
import io.spillover.jobs.EstimatedStart;
import io.spillover.jobs.JobEstimates;
import io.spillover.jobs.JobsChanged;
import io.spillover.jobs.PendingJobs;
import io.spillover.jobs.QueuedJob;
import io.spillover.placement.OfferingKey;
import io.spillover.placement.PreferenceEntry;
import io.spillover.placement.PreferenceList;
import io.spillover.replay.Forecast;
import io.spillover.replay.Situation;
import io.spillover.replay.StartEstimate;
import io.spillover.scheduling.Leadership;
import io.spillover.scheduling.PlacementActivity;
import io.spillover.system.DedicatedPool;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * Keeps the pending jobs' estimated starts fresh, on changes and never by polling, without ever slowing a placement.
 *
 * <p><b>What it forecasts.</b> The {@link Forecast} follows the first {@code window} pending jobs of each team on each
 * type (the queue's windows, {@link PendingJobs#windows}): a job further back than that on every type it lists is
 * beyond the forecast, and says so. So an estimation costs what the windows hold, not the length of the queue.
 *
 * <p><b>What it re-estimates.</b> Every instance hears of the jobs that change ({@link JobsChanged}: a start, an end, a
 * stop, a requeue, a new job's first evaluation). After a burst of them has {@link #SETTLE settled}, the estimator
 * reads which offerings those jobs list and re-estimates only the windows of those offerings and of the offerings
 * linked to them ({@link OfferingGroups}): the jobs behind a release, an arrival or a stop there, and nothing else;
 * the rest keep their estimates. A job that arrives behind a full window gets its "beyond" basis alone. A full
 * estimation of every window is the safety net: at the start, every {@code full-interval}, and when the changes were
 * too many to name.
 *
 * <p><b>Placement first, by construction.</b> It runs on a thread of its own, and every connection it uses comes from a
 * {@link DedicatedPool} of {@value #POOL_SIZE}, never from the pool the API and the scheduler draw on; it writes only
 * its own tables. It {@link PlacementActivity#stepAside steps aside} while the scheduler of its instance has work in
 * hand, before each read, each of the forecast's samples and each write, for at most {@link #STEP_ASIDE} in all per
 * estimation: a wake-up does not share the cores with a forecast. A {@link DutyCycle} keeps it busy at most
 * {@code max-share} of one core on average, the database's work for it included and the time it stepped aside not.
 * Where it runs is {@code runs-on}'s ({@link EstimatorRole}): the instance that schedules, or one that does not.
 *
 * <p>It stores what moved ({@link EstimatedStart#movedFrom}) after the {@link EstimateCalibration} corrected it, and
 * the write notifies every instance.
 */
@Component
class StartEstimator implements SmartLifecycle, DisposableBean {

    /** How long changes gather before an estimation: a burst (a batch submitted, a chain of starts) is one. */
    static final Duration SETTLE = Duration.ofMillis(50);
    /** Busy time kept for estimations of changes after a full estimation, so that they need not wait for it. */
    static final Duration RESERVE = Duration.ofMillis(250);
    /**
     * The longest an estimation steps aside, in all, for placement work: at every step (before it reads, before each of
     * the forecast's samples, before it writes) it waits while this instance's scheduler has work in hand, until this
     * much waiting is spent; then it goes on regardless, so that a scheduler that is always busy cannot starve it.
     */
    static final Duration STEP_ASIDE = Duration.ofMillis(250);
    /** How often an instance that does not estimate asks whether it should now. */
    static final Duration ROLE_CHECK = Duration.ofSeconds(2);
    /** Past this many changed jobs at once, the next estimation is a full one. */
    static final int MAX_NOTICED = 10_000;
    /** The estimator's connections: one to hold the standby's lock, two to work on. */
    static final int POOL_SIZE = 3;
    private static final Logger log = LoggerFactory.getLogger(StartEstimator.class);

    /**
     * What an estimation covered, for the logs and the tests.
     *
     * @param at        when it read the platform: its estimates' {@code estimatedAt}
     * @param offerings the offerings whose windows it read, by type and region; empty for a full estimation
     * @param forecast  how many jobs it forecast
     * @param changed   how many estimates it wrote or removed
     * @param aside     how long it stepped aside for placement work
     */
    record Run(Instant at, boolean full, Set<OfferingKey> offerings, int forecast, int changed, Duration aside) {
    }

    /** How many of the latest estimations {@link #recent()} tells. */
    static final int RECENT = 32;

    /** What this instance stored last for a job it forecast, and where the job waits: offerings and place in line. */
    private record Kept(String team, EstimatedStart start, Set<OfferingKey> offerings, InQueue place) {
    }

    /** A job's place in queue order: priority (higher first), submission, id ({@code QueuedRequest.queueOrder()}). */
    record InQueue(int priority, Instant submitted, UUID id) implements Comparable<InQueue> {

        @Override
        public int compareTo(InQueue other) {
            int byPriority = Integer.compare(other.priority, priority);
            if (byPriority != 0) {
                return byPriority;
            }
            int bySubmission = submitted.compareTo(other.submitted);
            if (bySubmission != 0) {
                return bySubmission;
            }
            int high = Long.compareUnsigned(id.getMostSignificantBits(), other.id.getMostSignificantBits());
            return high != 0 ? high : Long.compareUnsigned(id.getLeastSignificantBits(), other.id.getLeastSignificantBits());
        }
    }

    private final Situations situations;
    private final PendingJobs pending;
    private final Forecast forecast;
    private final JobEstimates estimates;
    private final EstimateCalibration calibration;
    private final EstimatesProperties settings;
    private final Clock clock;
    private final DedicatedPool pool;
    private final EstimatorRole role;
    private final PlacementActivity placement;
    private final String beyond;
    private final Timer fullRuns;
    private final Timer changeRuns;
    private final Timer stepsAside;

    private final Object lock = new Object();
    private final Set<UUID> noticed = new HashSet<>();
    private boolean anyJob;
    private volatile boolean estimating;
    private volatile boolean running;
    private Thread thread;
    private final Deque<Run> recent = new ArrayDeque<>();

    // the estimator thread's own
    private Map<UUID, Kept> kept = new HashMap<>();
    private OfferingGroups groups;
    private boolean fresh;
    private long nextFull;
    private DutyCycle duty;
    /** Nanoseconds the current estimation may still step aside, and has stepped aside. */
    private long asideLeft;
    private long aside;

    StartEstimator(Situations situations, PendingJobs pending, Catalog catalog, JobEstimates estimates,
                   ObjectProvider<EstimateCalibration> calibration, Leadership leadership, PlacementActivity placement,
                   EstimatesProperties settings, DataSource dataSource, Clock clock, MeterRegistry registry) {
        this.situations = situations;
        this.pending = pending;
        this.forecast = new Forecast(catalog);
        this.estimates = estimates;
        this.calibration = calibration.getIfAvailable(() -> EstimateCalibration.NONE);
        this.settings = settings;
        this.clock = clock;
        this.pool = DedicatedPool.of(dataSource, "spillover-estimates", POOL_SIZE, registry);
        this.role = new EstimatorRole(settings.runsOn(), leadership, pool);
        this.placement = placement;
        this.beyond = "beyond the forecast: at least " + settings.window()
                + " jobs of its team wait before it for each type it lists";
        this.fullRuns = timer(registry, "full");
        this.changeRuns = timer(registry, "changes");
        this.stepsAside = Timer.builder("spillover.estimates.aside")
                .description("How long one estimation stepped aside while the scheduler had placement work in hand "
                        + "(not counted in spillover.estimates.run)")
                .publishPercentileHistogram().register(registry);
    }

    private static Timer timer(MeterRegistry registry, String scope) {
        return Timer.builder("spillover.estimates.run")
                .description("One estimation of pending jobs' starts: windows read, forecast and the write of what "
                        + "moved, without the time it stepped aside for placement; scope full (every window) or "
                        + "changes (the windows a change could move)")
                .tag("scope", scope).publishPercentileHistogram().register(registry);
    }

    @EventListener
    void on(JobsChanged event) {
        if (!estimating) {
            return;
        }
        synchronized (lock) {
            if (event.anyJob() || noticed.size() + event.jobs().size() > MAX_NOTICED) {
                anyJob = true;
                noticed.clear();
            } else {
                noticed.addAll(event.jobs());
            }
            lock.notifyAll();
        }
    }

    /** What the latest estimations covered, the latest last. */
    List<Run> recent() {
        synchronized (recent) {
            return List.copyOf(recent);
        }
    }

    /** Asks for a full estimation as soon as the duty cycle allows it. */
    void askFull() {
        synchronized (lock) {
            anyJob = true;
            lock.notifyAll();
        }
    }

    @Override
    public void start() {
        running = true;
        thread = new Thread(this::loop, "spillover-estimates");
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public void stop() {
        running = false;
        if (thread != null) {
            thread.interrupt();
            try {
                thread.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public void destroy() {
        pool.close();
    }

    private void loop() {
        duty = new DutyCycle(settings.maxShare(), RESERVE, System.nanoTime());
        try {
            while (running) {
                if (!role.estimates()) {
                    if (estimating) {
                        forget();
                    }
                    Thread.sleep(ROLE_CHECK.toMillis());
                    continue;
                }
                estimating = true; // from here on it hears of changes; a full estimation comes first
                Boolean full = next();
                if (full != null) {
                    Thread.sleep(SETTLE.toMillis()); // the rest of a burst arrives meanwhile
                    estimate(full);
                }
            }
        } catch (InterruptedException e) {
            // stopping
        } finally {
            role.release();
            forget();
        }
    }

    /** Forgets all it knew: when it estimates again, it starts with a full estimation. */
    private void forget() {
        estimating = false;
        synchronized (lock) {
            noticed.clear();
            anyJob = false;
        }
        kept = new HashMap<>();
        groups = null;
        fresh = false;
    }

    /**
     * Waits for work: true for a full estimation, once one is due and the duty cycle allows it; false for the changes
     * heard of, once it allows that; null when it is time to ask again whether this instance estimates.
     */
    private Boolean next() throws InterruptedException {
        long checkAt = System.nanoTime() + ROLE_CHECK.toNanos();
        synchronized (lock) {
            while (running) {
                long now = System.nanoTime();
                if (now - checkAt >= 0) {
                    return null;
                }
                boolean fullDue = !fresh || anyJob || now - nextFull >= 0;
                long untilFull = fullDue ? duty.untilFull(now) : Long.MAX_VALUE;
                long untilChanges = noticed.isEmpty() ? Long.MAX_VALUE : duty.untilChanges(now);
                if (untilFull == 0) {
                    return true;
                }
                if (untilChanges == 0) {
                    return false;
                }
                long wait = Math.min(checkAt - now, Math.min(untilFull, untilChanges));
                if (!fullDue) {
                    wait = Math.min(wait, nextFull - now);
                }
                lock.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(wait)));
            }
            return null;
        }
    }

    /** One estimation, full or of the changes heard of, on the estimator's pool; what it took is on the duty cycle. */
    private void estimate(boolean full) {
        Set<UUID> changed;
        synchronized (lock) {
            changed = new HashSet<>(noticed);
            noticed.clear();
            if (full) {
                anyJob = false;
            }
        }
        if (!full && changed.isEmpty()) {
            return; // a burst too large to name came meanwhile: the full estimation it asks for covers these
        }
        long began = System.nanoTime();
        asideLeft = STEP_ASIDE.toNanos();
        aside = 0;
        try {
            Run run = pool.call(() -> full ? everything() : changes(changed));
            if (full) {
                fresh = true;
            }
            synchronized (recent) {
                recent.addLast(run);
                if (recent.size() > RECENT) {
                    recent.removeFirst();
                }
            }
            log.debug("Estimated {}", run);
        } catch (RuntimeException e) {
            // the database is away, or a forecast failed: the next estimation is a full one, and all is written anew
            kept = new HashMap<>();
            fresh = false;
            log.warn("Could not estimate the pending jobs' starts; trying again: {}", e.toString());
        } finally {
            long ended = System.nanoTime();
            duty.spent(ended, ended - began - aside, full);
            (full ? fullRuns : changeRuns).record(ended - began - aside, TimeUnit.NANOSECONDS);
            stepsAside.record(aside, TimeUnit.NANOSECONDS);
            if (full) {
                nextFull = ended + settings.fullInterval().toNanos();
            }
        }
    }

    /**
     * Waits while the scheduler has placement work in hand, as long as this estimation may still step aside. An
     * interrupt (the estimator stopping) ends the wait and stays set.
     */
    private void stepAside() {
        if (asideLeft <= 0) {
            return;
        }
        try {
            long waited = placement.stepAside(Duration.ofNanos(asideLeft)).toNanos();
            aside += waited;
            asideLeft -= waited;
        } catch (InterruptedException e) {
            asideLeft = 0;
            Thread.currentThread().interrupt();
        }
    }

    /** Every window of the queue, and a "beyond" basis for every other pending job. */
    private Run everything() {
        groups = new OfferingGroups(situations.policy().fairShare());
        stepAside();
        Situations.Read read = situations.read(() -> pending.windows(null, settings.window()));
        return store(read, null, Set.of());
    }

    /**
     * The windows of the offerings the changed jobs list and of those linked to them; the changed jobs that wait
     * beyond those windows get their "beyond" basis, and those that no longer wait lose their estimate. A new job
     * behind its team's full window on every offering it lists moves nothing the forecast follows: it gets its
     * basis, and nothing is forecast for it (a burst onto a long queue costs no forecast).
     */
    private Run changes(Set<UUID> changed) {
        var touched = new HashSet<OfferingKey>();
        var lastInWindow = new HashMap<List<Object>, Optional<InQueue>>();
        stepAside();
        for (PendingJobs.Listing job : pending.listings(changed)) {
            if (!job.pending() || kept.containsKey(job.id()) || !behindFullWindows(job, lastInWindow)) {
                touched.addAll(job.listed());
            }
        }
        if (touched.isEmpty()) {
            stepAside();
            Instant now = clock.instant();
            int written = estimates.store(new JobEstimates.Estimation(List.of(), changed, beyond, changed, now));
            return new Run(now, false, Set.of(), 0, written, Duration.ofNanos(aside));
        }
        Set<OfferingKey> scope = new HashSet<>(groups.closure(touched));
        stepAside();
        Situations.Read read = situations.read(() -> windowsOf(scope));
        return store(read, scope, changed);
    }

    /**
     * Whether the job comes after the last job of its team's window on every offering it lists, by what was stored
     * last (which holds every window the estimator has read: the first {@code window} of the team's jobs listing an
     * offering, in queue order, are the window of it).
     */
    private boolean behindFullWindows(PendingJobs.Listing job, Map<List<Object>, Optional<InQueue>> lastInWindow) {
        var place = new InQueue(job.priority(), job.createdAt(), job.id());
        for (OfferingKey offering : job.listed()) {
            OfferingKey where = OfferingGroups.place(offering);
            Optional<InQueue> last = lastInWindow.computeIfAbsent(List.of(where, job.team()), k -> {
                List<InQueue> line = kept.values().stream()
                        .filter(e -> e.team().equals(job.team()) && e.offerings().contains(where))
                        .map(Kept::place).sorted().toList();
                return line.size() < settings.window() ? Optional.empty()
                        : Optional.of(line.get(settings.window() - 1));
            });
            if (last.isEmpty() || place.compareTo(last.get()) <= 0) {
                return false;
            }
        }
        return true;
    }

    /** The windows of the offerings, and of every offering their jobs link them to; {@code scope} grows to those. */
    private List<QueuedJob> windowsOf(Set<OfferingKey> scope) {
        var read = new HashSet<OfferingKey>();
        var jobs = new HashMap<UUID, QueuedJob>();
        while (!read.containsAll(scope)) {
            var more = new HashSet<>(scope);
            more.removeAll(read);
            read.addAll(more);
            for (QueuedJob job : pending.windows(more, settings.window())) {
                jobs.putIfAbsent(job.id(), job);
                Set<OfferingKey> places = places(job.preferences());
                groups.link(places);
                if (!scope.containsAll(places)) {
                    scope.addAll(groups.closure(places));
                }
            }
        }
        return new ArrayList<>(jobs.values());
    }

    /** The offerings a job lists, by type and region. */
    private static Set<OfferingKey> places(PreferenceList preferences) {
        var places = new HashSet<OfferingKey>();
        for (PreferenceEntry entry : preferences.entries()) {
            places.add(OfferingGroups.place(entry.offering()));
        }
        return places;
    }

    /**
     * Forecasts the read's jobs and stores what moved: jobs kept from before that are in the scope and not in these
     * windows now are beyond the forecast, or gone.
     *
     * @param scope   the offerings whose windows were read; null for all
     * @param changed the jobs heard of: those not forecast get a "beyond" basis if they wait and have none
     */
    private Run store(Situations.Read read, Set<OfferingKey> scope, Set<UUID> changed) {
        Situation<UUID> situation = read.situation();
        stepAside();
        Forecast.Result<UUID> result = forecast.estimate(situation, this::stepAside);
        Map<UUID, StartEstimate> calibrated = calibration.calibrate(result.estimates(), situation);
        var next = scope == null ? new HashMap<UUID, Kept>() : new HashMap<>(kept);
        List<JobEstimates.Estimated> moved = new ArrayList<>();
        var forecast = new HashSet<UUID>();
        for (Situation.Waiting<UUID> waiting : situation.waiting()) {
            UUID job = waiting.job().id();
            String team = waiting.job().request().team();
            Set<OfferingKey> places = places(waiting.job().request().preferences());
            if (scope == null) {
                groups.link(places);
            }
            StartEstimate estimate = calibrated.get(job);
            EstimatedStart start = estimate == null
                    ? new EstimatedStart(null, null, null, null, beyond, false, situation.now())
                    : new EstimatedStart(estimate.p10(), estimate.p50(), estimate.p90(), estimate.entry(),
                    estimate.basis(), estimate.pastDeadline(), situation.now());
            Kept before = kept.get(job);
            var place = new InQueue(waiting.job().priority(), waiting.job().submittedAt(), job);
            if (start.movedFrom(before == null ? null : before.start())) {
                moved.add(new JobEstimates.Estimated(job, team, start));
                next.put(job, new Kept(team, start, places, place));
            } else {
                next.put(job, new Kept(team, before.start(), places, place));
            }
            forecast.add(job);
        }
        var left = new HashSet<>(changed);
        for (Map.Entry<UUID, Kept> was : kept.entrySet()) {
            UUID job = was.getKey();
            boolean inScope = scope == null || was.getValue().offerings().stream().anyMatch(scope::contains);
            if (inScope && !forecast.contains(job)) {
                // out of the windows: pushed back behind them, or out of the queue (then the write skips it)
                next.remove(job);
                left.add(job);
                moved.add(new JobEstimates.Estimated(job, was.getValue().team(),
                        new EstimatedStart(null, null, null, null, beyond, false, situation.now())));
            }
        }
        var newlyBeyond = new HashSet<>(changed);
        newlyBeyond.removeAll(forecast);
        stepAside();
        kept = new HashMap<>(); // until the write commits, what is stored is not known
        int written = estimates.store(new JobEstimates.Estimation(moved, scope == null ? null : newlyBeyond, beyond,
                scope == null ? null : left, situation.now()));
        kept = next;
        return new Run(situation.now(), scope == null, scope == null ? Set.of() : Set.copyOf(scope), forecast.size(),
                written, Duration.ofNanos(aside));
    }
}
