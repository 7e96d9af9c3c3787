package io.spillover.demo;

import io.spillover.jobs.EvaluationView;
import io.spillover.jobs.JobCommands;
import io.spillover.jobs.JobQueries;
import io.spillover.jobs.JobStatus;
import io.spillover.jobs.JobSubmissions;
import io.spillover.jobs.JobTransitioned;
import io.spillover.jobs.JobView;
import io.spillover.jobs.StartsEstimated;
import io.spillover.placement.Decision;
import io.spillover.security.Callers;
import io.spillover.shared.ConflictException;
import io.spillover.shared.NotFoundException;
import io.spillover.system.Access;
import io.spillover.system.Change;
import io.spillover.tenancy.TeamService;
import jakarta.annotation.PreDestroy;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Service;
import org.springframework.transaction.event.TransactionalEventListener;

/**
 * Starts, follows and stops the demo ({@link DemoScript}). It runs only where it makes sense: on the local provider,
 * whose jobs are simulated on this machine, with the demo teams {@code vision} and {@code nlp} (seeded on the
 * embedded default); one run at a time, never unless a platform admin asks. The script's steps and everything the
 * demo says run on one thread of its own, so it never holds up the scheduler or a request: job events are handed
 * to it, and it reads what it tells from the same services the API reads.
 */
@Service
public class DemoService {

    private static final Logger log = LoggerFactory.getLogger(DemoService.class);
    /** How long after a step the demo looks at the jobs that did not start, to say why they wait. */
    static final Duration LOOK_AFTER = Duration.ofMillis(1500);
    /** How often it looks again for a job the scheduler has not evaluated yet. */
    static final int LOOKS = 10;

    private final JobSubmissions submissions;
    private final JobCommands commands;
    private final JobQueries queries;
    private final TeamService teams;
    private final Callers callers;
    private final ApplicationEventPublisher events;
    private final Clock clock;
    private final String provider;
    private final ScheduledExecutorService script = Executors.newSingleThreadScheduledExecutor(r -> {
        var thread = new Thread(r, "spillover-demo");
        thread.setDaemon(true);
        return thread;
    });
    private volatile DemoRun current;

    DemoService(JobSubmissions submissions, JobCommands commands, JobQueries queries, TeamService teams,
                Callers callers, ApplicationEventPublisher events, Clock clock,
                @Value("${spillover.provider:local}") String provider) {
        this.submissions = submissions;
        this.commands = commands;
        this.queries = queries;
        this.teams = teams;
        this.callers = callers;
        this.events = events;
        this.clock = clock;
        this.provider = provider;
    }

    @PreDestroy
    void shutdown() {
        script.shutdownNow();
    }

    /** The demo now: whether it may start, and the latest run with all it said. */
    public DemoView view() {
        String why = unavailableBecause();
        DemoRun run = current;
        if (run == null) {
            return new DemoView(DemoView.Status.IDLE, why == null, why, null, null, null, null, List.of(), List.of());
        }
        return run.view(why == null && !run.running(), why);
    }

    /** What the latest run said after the line {@code id}, and how it stands; for the demo's event stream. */
    DemoRun latest() {
        return current;
    }

    /** Why the demo cannot start on this platform, or null when it can (a run in progress aside). */
    String unavailableBecause() {
        if (!"local".equals(provider.trim().toLowerCase(Locale.ROOT))) {
            return "the demo runs simulated jobs on the local provider's fleet; this platform runs jobs on " + provider
                    + ", where they would be real";
        }
        if (!teams.exists(DemoScript.VISION) || !teams.exists(DemoScript.NLP)) {
            return "the demo runs as the demo teams vision and nlp, which this platform does not have (they are"
                    + " seeded on the embedded default, without spring.datasource.url)";
        }
        return null;
    }

    /** Starts a run: its steps follow on the demo's own thread (202 in the API). */
    @Change(level = Access.Level.PLATFORM_ADMIN, action = "start demo", target = "demo")
    public synchronized DemoView start() {
        String why = unavailableBecause();
        if (why != null) {
            throw new ConflictException("the demo cannot start here: " + why);
        }
        DemoRun running = current;
        if (running != null && running.running()) {
            throw new ConflictException("the demo " + running.tag() + " is running; stop it first");
        }
        String tag = tag();
        List<DemoScript.Step> steps = DemoScript.steps(tag);
        var run = new DemoRun(tag, clock.instant(), callers.name(), steps.size());
        run.says(clock.instant(), "The demo starts: " + DemoScript.names(tag).size() + " jobs of the teams vision and"
                + " nlp on the demo fleet, simulated by the local provider, over about two minutes. Stop it at any time.");
        current = run;
        for (DemoScript.Step step : steps) {
            run.scheduled(script.schedule(() -> perform(run, step), step.at().toMillis(), TimeUnit.MILLISECONDS));
        }
        log.info("Demo {} started by {}", tag, callers.name());
        progressed(run);
        return view();
    }

    /** Stops the run in progress and every job of it still live; with none running, answers the demo as it is. */
    @Change(level = Access.Level.PLATFORM_ADMIN, action = "stop demo", target = "demo")
    public DemoView stop() {
        DemoRun run = current;
        if (run == null || !run.running()) {
            return view();
        }
        run.end(DemoView.Status.STOPPED, clock.instant());
        int stopped = 0;
        for (var job : run.live().entrySet()) {
            stopped += stopQuietly(job.getValue(), job.getKey()) ? 1 : 0;
        }
        run.says(clock.instant(), "Stopped by " + callers.name() + ": " + stopped + " job(s) of the demo stopped,"
                + " the steps still to come cancelled.");
        log.info("Demo {} stopped by {}", run.tag(), callers.name());
        progressed(run);
        return view();
    }

    /** Stops a job of the demo unless it has ended, or is not made yet (its submission then sees the run stopped). */
    private boolean stopQuietly(String team, String name) {
        try {
            commands.stop(team, name);
            return true;
        } catch (ConflictException | NotFoundException gone) {
            return false;
        }
    }

    /** Its jobs are named {@code demo-<tag>-<role>}: base 36 of the second it started, unique for years. */
    private String tag() {
        String seconds = Long.toString(clock.instant().getEpochSecond(), 36);
        return seconds.substring(Math.max(0, seconds.length() - 5));
    }

    private void perform(DemoRun run, DemoScript.Step step) {
        if (!run.running()) {
            return;
        }
        run.says(clock.instant(), step.says());
        progressed(run);
        for (DemoScript.Submission job : step.submissions()) {
            String name = job.request().name();
            if (!run.running()) {
                break;
            }
            run.submitted(job.team(), name); // before it exists: its placement may be announced before submit returns
            try {
                submissions.submit(job.team(), job.request());
            } catch (RuntimeException refused) { // a rule the platform's admins changed, the database away
                run.ended(name);
                run.says(clock.instant(), name + " was refused: " + refused.getMessage());
                progressed(run);
                continue;
            }
            if (!run.running()) { // stopped while this job was being submitted: the stop may have missed it
                stopQuietly(job.team(), name);
            }
        }
        run.stepDone();
        List<String> names = step.submissions().stream().map(s -> s.request().name()).toList();
        script.schedule(() -> told(() -> look(run, names, LOOKS)), LOOK_AFTER.toMillis(), TimeUnit.MILLISECONDS);
        finishIfOver(run);
    }

    /** Says why each of these jobs waits, once the scheduler has evaluated it; started ones are told elsewhere. */
    private void look(DemoRun run, List<String> names, int looksLeft) {
        if (!run.running()) {
            return;
        }
        var notYet = new java.util.ArrayList<String>();
        for (String name : names) {
            String team = run.live().get(name);
            if (team == null) {
                continue;
            }
            JobView job = queries.describe(team, name);
            if (job.status() != JobStatus.PENDING) {
                continue;
            }
            List<EvaluationView> latest = queries.evaluations(team, name, 1);
            if (latest.isEmpty()) {
                notYet.add(name);
            } else if (run.firstTime(name, "waits")) {
                run.says(clock.instant(), Narration.waits(job, latest.get(0)));
                progressed(run);
            }
        }
        if (!notYet.isEmpty() && looksLeft > 1) {
            script.schedule(() -> told(() -> look(run, notYet, looksLeft - 1)), 1, TimeUnit.SECONDS);
        }
    }

    /** A job of the run changed: its placement and its end are told. Read on the demo's thread, after commit. */
    @TransactionalEventListener(fallbackExecution = true)
    void on(JobTransitioned event) {
        DemoRun run = current;
        if (run != null && run.has(event.team(), event.jobName())) {
            script.execute(() -> told(() -> transitioned(run, event)));
        }
    }

    /** Estimated starts moved: the run's waiting jobs' first estimates are told. */
    @EventListener
    void on(StartsEstimated event) {
        DemoRun run = current;
        if (run != null && run.running() && (event.concerns(DemoScript.VISION) || event.concerns(DemoScript.NLP))) {
            script.execute(() -> told(() -> estimates(run)));
        }
    }

    private void transitioned(DemoRun run, JobTransitioned event) {
        String name = event.jobName();
        JobStatus status = event.status();
        if (status == JobStatus.STARTING && run.firstTime(name, "placed")) {
            JobView job = queries.describe(event.team(), name);
            if (job.selection() != null) {
                EvaluationView selecting = queries.evaluations(event.team(), name, 5).stream()
                        .filter(e -> e.outcome() == Decision.Outcome.SELECTED).findFirst().orElse(null);
                say(run, Narration.placed(job, selecting, event.transition().at()));
            }
        } else if (status.ended() && run.firstTime(name, "ended")) {
            run.ended(name);
            if (run.running()) {
                say(run, Narration.ended(queries.describe(event.team(), name)));
            }
            finishIfOver(run);
        }
    }

    private void estimates(DemoRun run) {
        if (!run.running()) {
            return;
        }
        run.live().forEach((name, team) -> {
            JobView job = queries.describe(team, name);
            var estimate = job.estimatedStart();
            if (job.status() == JobStatus.PENDING && estimate != null && estimate.p50() != null
                    && run.firstTime(name, "estimate")) {
                say(run, Narration.estimated(job, estimate, run.startedAt()));
            }
        });
    }

    private void finishIfOver(DemoRun run) {
        if (run.running() && run.over()) {
            run.end(DemoView.Status.DONE, clock.instant());
            run.says(clock.instant(), "The demo is over: every job of it has ended. Its jobs stay in the teams' job"
                    + " lists; start it again at any time.");
            log.info("Demo {} is over", run.tag());
            progressed(run);
        }
    }

    private void say(DemoRun run, String text) {
        run.says(clock.instant(), text);
        progressed(run);
    }

    private void progressed(DemoRun run) {
        events.publishEvent(new DemoProgressed(run.tag(), run.status()));
    }

    /** Runs a piece of narration; one that fails (the database is away) is left untold, never the run's end. */
    private static void told(Runnable telling) {
        try {
            telling.run();
        } catch (RuntimeException e) {
            log.warn("The demo could not tell what happened: {}", e.getMessage());
        }
    }
}
