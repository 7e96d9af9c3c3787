package io.spillover.console;

import io.spillover.shared.ConflictException;
import io.spillover.shared.InvalidRequestException;
import io.spillover.system.Access;
import io.spillover.whatif.Configuration;
import io.spillover.whatif.Figures;
import io.spillover.whatif.WhatIfService;
import io.spillover.whatif.WhatIfStatus;
import io.spillover.whatif.WhatIfView;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.multipart.MultipartFile;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

/**
 * What-if runs in the console, for platform admins: the form (a window of history or a trace, and the settings to
 * change), the runs so far, and a run's page, whose progress bar and figures follow the run live.
 */
@Controller
class WhatIfPages {

    private final ConsoleAccess access;
    private final WhatIfService whatIf;
    private final Charts charts;
    private final Clock clock;

    WhatIfPages(ConsoleAccess access, WhatIfService whatIf, Charts charts, Clock clock) {
        this.access = access;
        this.whatIf = whatIf;
        this.charts = charts;
        this.clock = clock;
    }

    /** One row of a table comparing the sides: a team's or an offering's figures, or a plan's use. */
    record Row(String name, Cells baseline, Cells change) {
    }

    /** One side's figures of a row, worded; {@code seconds} keeps the mean and percentiles as numbers. */
    record Cells(int jobs, int started, String mean, String p50, String p95, String p99, List<Double> seconds) {

        static Cells of(Figures.Group group) {
            if (group == null) {
                return null;
            }
            return of(group.jobs(), group.started(), group.waits());
        }

        static Cells of(int jobs, int started, Figures.Wait wait) {
            return new Cells(jobs, started, words(wait.mean()), words(wait.p50()), words(wait.p95()), words(wait.p99()),
                    List.of(wait.mean(), (double) wait.p50(), (double) wait.p95(), (double) wait.p99()));
        }
    }

    @GetMapping("/admin/what-if")
    String form(Model model) {
        access.require(Access.Level.PLATFORM_ADMIN, null);
        Configuration current = whatIf.current();
        model.addAttribute("current", current);
        model.addAttribute("shown", WhatIfForm.shown(current));
        if (!model.containsAttribute("values")) {
            Instant now = clock.instant().truncatedTo(ChronoUnit.SECONDS);
            var values = new LinkedHashMap<>(WhatIfForm.shown(current));
            values.put("source", "history");
            values.put("from", now.minus(Duration.ofDays(7)).toString());
            values.put("to", now.toString());
            model.addAttribute("values", values);
        }
        model.addAttribute("runs", whatIf.list());
        return "admin/what-if";
    }

    /** The list of runs alone, redrawn live as runs move on. */
    @GetMapping("/admin/what-if/runs")
    String runs(Model model) {
        access.require(Access.Level.PLATFORM_ADMIN, null);
        model.addAttribute("runs", whatIf.list());
        return "admin/what-if :: runs";
    }

    @PostMapping("/admin/what-if")
    String start(@RequestParam Map<String, String> values, @RequestParam(required = false) MultipartFile trace,
                 Model model, RedirectAttributes redirect) {
        WhatIfForm.Built built = null;
        try {
            built = WhatIfForm.read(values, trace, WhatIfForm.shown(whatIf.current()));
            WhatIfView run = whatIf.start(built.request());
            redirect.addFlashAttribute("flash", "Started what-if run " + run.id());
            return "redirect:/admin/what-if/" + run.id();
        } catch (InvalidRequestException e) {
            model.addAttribute("errors", built == null ? new WhatIfForm.Built(null, List.of()).errors(e.violations())
                    : built.errors(e.violations()));
            model.addAttribute("values", values);
            return form(model);
        } catch (ConflictException e) {
            redirect.addFlashAttribute("flashError", e.getMessage());
            return "redirect:/admin/what-if";
        }
    }

    @GetMapping("/admin/what-if/{id}")
    String run(@PathVariable UUID id, Model model) {
        access.require(Access.Level.PLATFORM_ADMIN, null);
        model.addAllAttributes(runModel(id));
        return "admin/what-if-run";
    }

    @GetMapping("/admin/what-if/{id}/panel")
    String panel(@PathVariable UUID id, Model model) {
        access.require(Access.Level.PLATFORM_ADMIN, null);
        model.addAllAttributes(runModel(id));
        return "admin/what-if-run :: panel";
    }

    private Map<String, Object> runModel(UUID id) {
        WhatIfView run = whatIf.get(id);
        var model = new LinkedHashMap<String, Object>();
        model.put("run", run);
        model.put("percent", (int) Math.floor(run.progress() * 100));
        if (run.status() == WhatIfStatus.DONE && run.result() != null) {
            Figures baseline = run.result().baseline();
            Figures change = run.result().change();
            model.put("overall", new Row("all jobs", Cells.of(baseline.jobs(), baseline.started(), baseline.waits()),
                    Cells.of(change.jobs(), change.started(), change.waits())));
            model.put("teams", rows(baseline.byTeam(), change.byTeam()));
            model.put("offerings", rows(baseline.byOffering(), change.byOffering()));
            model.put("plans", plans(baseline, change));
            model.put("chart", charts.waitCdf(baseline, change));
        }
        return model;
    }

    private static List<Row> rows(List<Figures.Group> baseline, List<Figures.Group> change) {
        Function<List<Figures.Group>, Map<String, Figures.Group>> byName = groups -> {
            var named = new LinkedHashMap<String, Figures.Group>();
            groups.forEach(g -> named.put(g.name(), g));
            return named;
        };
        Map<String, Figures.Group> before = byName.apply(baseline);
        Map<String, Figures.Group> after = byName.apply(change);
        var names = new LinkedHashSet<>(before.keySet());
        names.addAll(after.keySet());
        var rows = new ArrayList<Row>();
        names.stream().sorted().forEach(name -> rows.add(new Row(name, Cells.of(before.get(name)),
                Cells.of(after.get(name)))));
        return rows;
    }

    /** Each plan's use on each side, in percent; null where a side has no such plan. */
    private static List<List<String>> plans(Figures baseline, Figures change) {
        var names = new LinkedHashSet<>(baseline.plans().keySet());
        names.addAll(change.plans().keySet());
        var rows = new ArrayList<List<String>>();
        if (names.isEmpty()) {
            return rows;
        }
        rows.add(List.of("all plans", percent(baseline.planUtilization()), percent(change.planUtilization())));
        names.stream().sorted().forEach(name -> rows.add(List.of(name, percent(baseline.plans().get(name)),
                percent(change.plans().get(name)))));
        return rows;
    }

    private static String percent(Double share) {
        return share == null ? "—" : String.format(Locale.ROOT, "%.1f %%", share * 100);
    }

    /** A wait in words: "0 s", "42 s", "12.5 min", "3.1 h", "2.4 d". */
    static String words(double seconds) {
        if (seconds < 60) {
            return String.format(Locale.ROOT, seconds == Math.rint(seconds) ? "%.0f s" : "%.1f s", seconds);
        }
        if (seconds < 3600) {
            return String.format(Locale.ROOT, "%.1f min", seconds / 60);
        }
        if (seconds < 86_400) {
            return String.format(Locale.ROOT, "%.1f h", seconds / 3600);
        }
        return String.format(Locale.ROOT, "%.1f d", seconds / 86_400);
    }
}
