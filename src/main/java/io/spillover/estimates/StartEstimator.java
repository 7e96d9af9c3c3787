package io.spillover.estimates;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.spillover.catalog.Catalog;
import io.spillover.jobs.EstimatedStart;
import io.spillover.jobs.JobEstimates;
import io.spillover.placement.OfferingKey;
import io.spillover.placement.QueuedRequest;
import io.spillover.replay.Forecast;
import io.spillover.replay.Situation;
import io.spillover.replay.StartEstimate;
import io.spillover.scheduling.Leadership;
import io.spillover.scheduling.QueueEvaluated;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * Keeps every pending job's estimated start fresh, on events and never by polling: each scheduling cycle that
 * evaluated the queue ({@link QueueEvaluated}, the leader's only) asks for an estimation; a thread of its own
 * gathers the asks of a burst for {@link #SETTLE}, reads one {@link Situations snapshot}, runs the {@link Forecast},
 * lets the {@link EstimateCalibration} correct it, and stores what moved ({@link EstimatedStart#movedFrom}). The
 * scheduler never waits for it. A forecast costs about a queue pass per start it simulates, so only the first
 * {@link #PER_LINE} jobs of each line (the pending jobs whose first entry is one offering, in queue order) are
 * estimated, the simulation ending once they have all started; the jobs further back (all of them still compete in
 * it) are told they are beyond the forecast. After an estimation that took a while, the next waits as long again, so estimating
 * takes at most about half of a core however busy the queue is; the periodic safety sweep's cycle re-estimates as
 * time passes with nothing happening.
 */
@Component
class StartEstimator implements SmartLifecycle {

    /** How long asks gather before an estimation: a burst of cycles (a batch submitted, a chain of starts) is one. */
    static final Duration SETTLE = Duration.ofMillis(50);
    /**
     * How many jobs of each line are estimated. With 10,000 waiting on one offering the whole queue cost 1.5 s of
     * forecast on a busy 2-core machine (docs/benchmarks.md, section 3); a line's later jobs wait for days or weeks,
     * where an interval says little.
     */
    static final int PER_LINE = 500;
    private static final Logger log = LoggerFactory.getLogger(StartEstimator.class);

    private final Situations situations;
    private final Forecast forecast;
    private final JobEstimates estimates;
    private final EstimateCalibration calibration;
    private final Leadership leadership;
    private final Timer runs;
    private final Object lock = new Object();
    private boolean asked;
    private volatile boolean running;
    private Thread thread;
    /** What this instance stored last, by job, to write only what moved; forgotten whenever it stops leading. */
    private Map<UUID, EstimatedStart> stored = new HashMap<>();

    StartEstimator(Situations situations, Catalog catalog, JobEstimates estimates,
                   ObjectProvider<EstimateCalibration> calibration, Leadership leadership, MeterRegistry registry) {
        this.situations = situations;
        this.forecast = new Forecast(catalog);
        this.estimates = estimates;
        this.calibration = calibration.getIfAvailable(() -> EstimateCalibration.NONE);
        this.leadership = leadership;
        this.runs = Timer.builder("spillover.estimates.run")
                .description("One estimation of every pending job's start: snapshot, forecast and the write of what moved")
                .publishPercentileHistogram().register(registry);
    }

    @EventListener
    void on(QueueEvaluated event) {
        ask();
    }

    /** Asks for an estimation soon; asks made before it begins are one. */
    void ask() {
        synchronized (lock) {
            asked = true;
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

    private void loop() {
        long spacing = 0;
        while (running) {
            try {
                synchronized (lock) {
                    while (!asked) {
                        lock.wait();
                    }
                }
                Thread.sleep(Math.max(SETTLE.toMillis(), spacing));
                synchronized (lock) {
                    asked = false;
                }
                if (!leadership.leading()) {
                    stored = new HashMap<>();
                    continue;
                }
                long began = System.nanoTime();
                estimate();
                long took = System.nanoTime() - began;
                runs.record(took, TimeUnit.NANOSECONDS);
                spacing = TimeUnit.NANOSECONDS.toMillis(took);
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                // the database is away, or a forecast failed: the next cycle asks again, and all is written anew
                stored = new HashMap<>();
                log.warn("Could not estimate the pending jobs' starts; trying again after the next cycle: {}",
                        e.toString());
            }
        }
    }

    /**
     * The first {@code perLine} waiting jobs of each line, in queue order; each other job's basis, in {@code beyond}:
     * "beyond the forecast: 812 jobs wait before it for on-demand ml.p5.48xlarge in us-east-1".
     */
    static Set<UUID> firstOfEachLine(List<Situation.Waiting<UUID>> waiting, int perLine, Map<UUID, String> beyond) {
        var sorted = waiting.stream().map(Situation.Waiting::job).sorted(QueuedRequest.queueOrder()).toList();
        var seen = new HashMap<OfferingKey, Integer>();
        var first = new HashSet<UUID>();
        for (QueuedRequest<UUID> job : sorted) {
            OfferingKey line = job.request().preferences().get(0).offering();
            int ahead = seen.merge(line, 1, Integer::sum) - 1;
            if (ahead < perLine) {
                first.add(job.id());
            } else {
                beyond.put(job.id(), "beyond the forecast: " + ahead + " jobs wait before it for " + line.describe()
                        + ", more than the " + perLine + " it estimates per first choice");
            }
        }
        return first;
    }

    /** One estimation of every pending job, stored where it moved. */
    void estimate() {
        Situations.Read read = situations.read();
        Situation<UUID> situation = read.situation();
        Map<UUID, String> beyond = new HashMap<>();
        Set<UUID> estimated = firstOfEachLine(situation.waiting(), PER_LINE, beyond);
        Forecast.Result<UUID> result = forecast.estimate(situation, estimated);
        Map<UUID, StartEstimate> calibrated = calibration.calibrate(result.estimates(), situation);
        var next = new HashMap<UUID, EstimatedStart>(read.teams().size() * 2);
        List<JobEstimates.Estimated> moved = new ArrayList<>();
        read.teams().forEach((job, team) -> {
            StartEstimate estimate = calibrated.get(job);
            EstimatedStart start;
            if (estimate != null) {
                start = new EstimatedStart(estimate.p10(), estimate.p50(), estimate.p90(), estimate.entry(),
                        estimate.basis(), estimate.pastDeadline(), situation.now());
            } else if (beyond.containsKey(job)) {
                start = new EstimatedStart(null, null, null, null, beyond.get(job), false, situation.now());
            } else {
                return;
            }
            EstimatedStart before = stored.get(job);
            if (start.movedFrom(before)) {
                moved.add(new JobEstimates.Estimated(job, team, start));
                next.put(job, start);
            } else {
                next.put(job, before);
            }
        });
        stored = Map.of(); // until the write commits, what is stored is not known
        int changed = estimates.store(moved);
        stored = next;
        log.debug("Estimated {} pending job(s) in {} passes; {} estimate(s) changed", next.size(), result.passes(),
                changed);
    }
}
