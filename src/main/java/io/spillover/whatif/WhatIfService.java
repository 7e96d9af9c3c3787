package io.spillover.whatif;

import io.spillover.jobs.RecordedJob;
import io.spillover.jobs.RecordedJobs;
import io.spillover.security.Caller;
import io.spillover.security.Callers;
import io.spillover.shared.InvalidRequestException;
import io.spillover.shared.NotFoundException;
import io.spillover.shared.Violation;
import io.spillover.system.Access;
import io.spillover.system.Change;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Starts what-if runs and shows them. A start checks everything it can at once and answers 400 naming the field
 * (or the trace's line and column) before anything is stored: the input must hold jobs to replay and the edits must
 * name what the live configuration has. It reads the live configuration and the input then, keeps the run, and
 * hands it to the {@link WhatIfRunner} once the run is committed; the replay itself runs in the background.
 */
@Service
public class WhatIfService {

    static final Instant EARLIEST = Instant.parse("1970-01-01T00:00:00Z");
    static final Instant LATEST = Instant.parse("9999-12-31T23:59:59Z");

    /** How many runs the list shows. */
    static final int LISTED = 50;
    /** A trace of more characters than this is refused (the API's body limit is usually the first to refuse one). */
    static final int MAX_TRACE_CHARS = 20 * 1024 * 1024;

    private final LiveConfiguration live;
    private final RecordedJobs history;
    private final WhatIfRuns runs;
    private final WhatIfRunner runner;
    private final Callers callers;
    private final Clock clock;

    WhatIfService(LiveConfiguration live, RecordedJobs history, WhatIfRuns runs, WhatIfRunner runner, Callers callers,
                  Clock clock) {
        this.live = live;
        this.history = history;
        this.runs = runs;
        this.runner = runner;
        this.callers = callers;
        this.clock = clock;
    }

    @Transactional
    @Change(level = Access.Level.PLATFORM_ADMIN, action = "start what-if", target = "what-if")
    public WhatIfView start(WhatIfRequest request) {
        Instant now = clock.instant();
        WhatIfRequest.Input input = request == null ? null : request.input();
        Scenario baseline = live.read();
        String kind = checkInput(input, now);
        Prepared prepared;
        if (kind.equals("trace")) {
            baseline = baseline.with(TraceInput.fleetFor(baseline.fleet()));
            prepared = TraceInput.of(input.trace(), baseline.fleet());
        } else {
            List<RecordedJob> submitted = history.submitted(input.from(), input.to());
            if (submitted.size() > RecordedJobs.MAX_JOBS) {
                throw new InvalidRequestException("input", "the window holds more than " + RecordedJobs.MAX_JOBS
                        + " jobs; choose a shorter one");
            }
            prepared = HistoryInput.of(input.from(), input.to(), now, submitted, history.runningAt(input.from()),
                    baseline.fleet());
        }
        Changes.Changed changed = Changes.apply(baseline, request.edits(), prepared.teams(), live.catalog());
        Scenario change = changed.scenario();
        var assumptions = new ArrayList<>(prepared.assumptions());
        assumptions.addAll(COMMON);
        if (!change.addedPlans().isEmpty()) {
            assumptions.add(ADDED_PLANS);
        }
        var view = new WhatIfView(UUID.randomUUID(), WhatIfStatus.QUEUED, 0, caller(), now, null, null, null,
                new WhatIfView.InputView(kind, kind.equals("history") ? input.from() : null,
                        kind.equals("history") ? input.to() : null, kind.equals("trace") ? traceName(input) : null,
                        prepared.jobs().size(), prepared.teams().size(), prepared.holdings().size(), prepared.skipped()),
                request.edits(), changed.described(), assumptions,
                new WhatIfView.Sides<>(Configuration.of(baseline), Configuration.of(change)), null);
        var work = new WhatIfRunner.Work(baseline, change, baseline.jobs(prepared.jobs()), change.jobs(prepared.jobs()),
                prepared.holdings());
        runner.reserve();
        try {
            runs.insert(view);
        } catch (RuntimeException e) {
            runner.release();
            throw e;
        }
        TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
            @Override
            public void afterCompletion(int status) {
                if (status == STATUS_COMMITTED) {
                    runner.submit(view.id(), work);
                } else {
                    runner.release();
                }
            }
        });
        return view;
    }

    /** The live configuration a run started now would take as its baseline, for the console's form. */
    public Configuration current() {
        return Configuration.of(live.read());
    }

    /** The newest runs first, without their figures. */
    public List<WhatIfView> list() {
        return runs.newest(LISTED);
    }

    public WhatIfView get(UUID id) {
        return runs.find(id).orElseThrow(() -> new NotFoundException("no what-if run " + id));
    }

    /** {@code history} or {@code trace}, once the input is one of them, whole and in range. */
    private static String checkInput(WhatIfRequest.Input input, Instant now) {
        if (input == null) {
            throw new InvalidRequestException("input", "give a window of the platform's history (from, to) or a"
                    + " trace (trace)");
        }
        boolean window = input.from() != null || input.to() != null;
        if (input.trace() != null) {
            if (window) {
                throw new InvalidRequestException("input", "give a window (from, to) or a trace, not both");
            }
            if (input.trace().isBlank()) {
                throw new InvalidRequestException("input.trace", "the trace is empty; its first line names the"
                        + " columns");
            }
            if (input.trace().indexOf('\0') >= 0) {
                throw new InvalidRequestException("input.trace", "must not contain the NUL character (U+0000)");
            }
            if (input.trace().length() > MAX_TRACE_CHARS) {
                throw new InvalidRequestException("input.trace", "a trace has at most " + MAX_TRACE_CHARS
                        + " characters");
            }
            if (input.traceName() != null && input.traceName().length() > 200) {
                throw new InvalidRequestException("input.traceName", "must be at most 200 characters");
            }
            return "trace";
        }
        var violations = new ArrayList<Violation>();
        if (input.from() == null) {
            violations.add(new Violation("input.from", "give the window's start (or a trace instead)"));
        }
        if (input.to() == null) {
            violations.add(new Violation("input.to", "give the window's end (or a trace instead)"));
        }
        for (String field : List.of("from", "to")) {
            Instant at = field.equals("from") ? input.from() : input.to();
            if (at != null && (at.isBefore(EARLIEST) || at.isAfter(LATEST))) {
                violations.add(new Violation("input." + field, "must lie from " + EARLIEST + " to " + LATEST));
            }
        }
        if (violations.isEmpty() && !input.from().isBefore(input.to())) {
            violations.add(new Violation("input.to", "must be after input.from"));
        }
        if (violations.isEmpty() && input.from().isAfter(now)) {
            violations.add(new Violation("input.from", "must not be in the future: history is what has happened"));
        }
        if (!violations.isEmpty()) {
            throw new InvalidRequestException(violations);
        }
        return "history";
    }

    private static String traceName(WhatIfRequest.Input input) {
        return input.traceName() == null || input.traceName().isBlank() ? "uploaded trace" : input.traceName().strip();
    }

    private String caller() {
        return callers.current().map(Caller::name).orElse("spillover");
    }

    static final List<String> COMMON = List.of(
            "Both sides replay the same jobs at the same submission times, on the configuration as it was when the run"
                    + " started (the baseline) and on that configuration with the change.",
            "Training plans keep the status they have now for the whole replay; an added plan is ACTIVE throughout."
                    + " Capacity is what each offering has; marks of unavailability, refused launches and provider"
                    + " errors are not replayed.",
            "Jobs run to their end: maximum pending times are not enforced, so a job waits until it starts. Expected"
                    + " run times are learned from the replayed runs as the replay goes, as the service learns them.");

    static final String ADDED_PLANS = "A training job of a team an added plan serves, whose list names the plan's"
            + " instance type, lists the plan just before its first entry of that type, as a team with a plan would;"
            + " an on-demand entry of the plan's type in its region gives up its place to it (a list names each type"
            + " and region once), and a list grown past five entries loses its last one.";
}
