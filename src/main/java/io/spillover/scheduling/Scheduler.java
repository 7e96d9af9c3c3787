package io.spillover.scheduling;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.spillover.capacity.Offerings;
import io.spillover.jobs.JobStatus;
import io.spillover.jobs.ProviderReports;
import io.spillover.jobs.SchedulerQueries;
import io.spillover.plans.PlanService;
import io.spillover.providers.CapacityProvider;
import io.spillover.providers.ProviderJobChanged;
import io.spillover.providers.ProviderJobStatus;
import io.spillover.system.DatabaseFailures;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * The scheduler thread. While this instance leads, it sleeps until an event leaves work or a timer falls
 * due (a pending deadline, a run-time limit, an unavailable mark running out, a plan's window starting or
 * ending, a waiting job's patience opening its next entry, the safety sweep), then runs
 * one {@link SchedulingCycle}, with the work in hand on {@link PlacementActivity} meanwhile. A standby instance only
 * tries for the lead now and then.
 */
@Component
class Scheduler implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(Scheduler.class);

    private final Leadership leadership;
    private final Wakeups wakeups;
    private final SchedulingCycle cycle;
    private final SchedulerQueries jobs;
    private final ProviderReports reports;
    private final Offerings offerings;
    private final PlanService plans;
    private final CapacityProvider provider;
    private final Launcher launcher;
    private final PlacementActivity activity;
    private final ApplicationEventPublisher events;
    private final SchedulingProperties properties;
    private final Clock clock;
    private final Timer eventCycles;
    private final Timer sweepCycles;
    private final LoopThread thread = new LoopThread("spillover-scheduler", Duration.ofSeconds(5));

    Scheduler(Leadership leadership, Wakeups wakeups, SchedulingCycle cycle, SchedulerQueries jobs,
              ProviderReports reports, Offerings offerings, PlanService plans, CapacityProvider provider,
              Launcher launcher, PlacementActivity activity, ApplicationEventPublisher events, SchedulingProperties properties, Clock clock,
              MeterRegistry registry) {
        this.plans = plans;
        this.leadership = leadership;
        this.wakeups = wakeups;
        this.cycle = cycle;
        this.jobs = jobs;
        this.reports = reports;
        this.offerings = offerings;
        this.provider = provider;
        this.launcher = launcher;
        this.activity = activity;
        this.events = events;
        this.properties = properties;
        this.clock = clock;
        this.eventCycles = cycleTimer(registry, "events");
        this.sweepCycles = cycleTimer(registry, "sweep");
    }

    private static Timer cycleTimer(MeterRegistry registry, String scope) {
        return Timer.builder("spillover.scheduling.cycle")
                .description("One scheduling cycle: snapshot, decisions and their transaction; scope events or sweep")
                .tag("scope", scope).publishPercentileHistogram().register(registry);
    }

    @Override
    public void start() {
        thread.start(this::loop);
    }

    @Override
    public void stop() {
        thread.stop();
        leadership.resign();
    }

    @Override
    public boolean isRunning() {
        return thread.running();
    }

    private void loop() {
        boolean leading = false;
        Instant nextSweep = clock.instant();
        while (thread.running()) {
            try {
                Instant now = clock.instant();
                if (!leadership.lead()) {
                    leading = false;
                    wakeups.await(now.plus(properties.leaderRetryInterval())); // a standby drops events: takeover sweeps
                    continue;
                }
                if (!leading) {
                    leading = true;
                    nextSweep = now;
                }
                var timers = new SchedulingCycle.Timers(jobs.nextDeadline(), offerings.nextMarkExpiry(),
                        plans.nextBoundary(now));
                Instant wakeAt = Stream.of(timers.nextDeadline(), timers.nextMarkExpiry(), cycle.nextRevisit(),
                                timers.nextPlanBoundary(), Optional.of(nextSweep),
                                Optional.of(now.plus(properties.leaderRetryInterval())))
                        .flatMap(Optional::stream).min(Instant::compareTo).orElseThrow();
                Scope scope = wakeups.await(wakeAt);
                boolean sweep = !clock.instant().isBefore(nextSweep);
                boolean evaluated;
                try (PlacementActivity.Work work = activity.begin()) {
                    if (sweep) {
                        reconcile();
                        scope.and(Scope.everything(Trigger.SWEEP));
                        nextSweep = clock.instant().plus(properties.sweepInterval());
                    }
                    Timer.Sample timing = Timer.start();
                    try {
                        evaluated = cycle.run(scope, timers);
                    } finally {
                        timing.stop(sweep ? sweepCycles : eventCycles);
                    }
                }
                if (evaluated) {
                    events.publishEvent(new QueueEvaluated(clock.instant(), sweep));
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                if (DatabaseFailures.isOutage(e)) {
                    // nothing was half done: a cycle's writes are one transaction
                    log.warn("Scheduling cycle failed, the database cannot be reached; retrying: {}", e.getMessage());
                } else {
                    log.error("Scheduling cycle failed; retrying with the next wake-up", e);
                }
                pause();
            }
        }
    }

    /**
     * On taking over and at every sweep: brings jobs on the provider in line with what the provider knows,
     * healing lost reports. An attempt still
     * STARTING is launched again (the provider finds it by name if the first launch got through); one the
     * provider never heard of fails; an end the provider saw is applied.
     */
    private void reconcile() {
        var attempts = jobs.liveAttempts();
        int unreachable = 0;
        for (SchedulerQueries.LiveAttempt live : attempts) {
            try {
                if (!reconcile(live)) {
                    unreachable++;
                }
            } catch (RuntimeException e) {
                // One attempt's trouble must not keep the others, or the sweep, from being reconciled.
                log.error("Could not reconcile {}; the next sweep tries again", live.providerJobName(), e);
            }
        }
        if (unreachable > 0) {
            log.warn("Could not reach the {} provider for {} of {} live job(s); they stay as they are",
                    provider.name(), unreachable, attempts.size());
        }
        log.debug("Reconciled {} job(s) on the {} provider", attempts.size(), provider.name());
    }

    /** Brings one live attempt in line with the provider; false when the provider could not be reached. */
    private boolean reconcile(SchedulerQueries.LiveAttempt live) {
        Optional<ProviderJobStatus> seen;
        try {
            seen = provider.describe(live.providerJobName());
        } catch (RuntimeException e) {
            return false; // out of reach: the job stays as it is until a later sweep sees it
        }
        if (seen.isEmpty()) {
            if (live.status() == JobStatus.STARTING) {
                launcher.relaunch(live.jobId(), live.attempt());
            } else {
                reports.lostByProvider(live.jobId(), live.attempt());
            }
        } else if (seen.get().ended() || seen.get() == ProviderJobStatus.RUNNING) {
            events.publishEvent(new ProviderJobChanged(live.providerJobName(), seen.get(),
                    "seen by the provider when reconciling"));
        }
        if (live.status() == JobStatus.STOPPING && seen.filter(s -> !s.ended()).isPresent()) {
            launcher.stopOnProvider(live.providerJobName());
        }
        return true;
    }

    private void pause() {
        try {
            Thread.sleep(1_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
