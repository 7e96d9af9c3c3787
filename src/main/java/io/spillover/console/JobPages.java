package io.spillover.console;

import io.spillover.catalog.Catalog;
import io.spillover.catalog.Equivalents;
import io.spillover.catalog.InstanceType;
import io.spillover.jobs.Explanations;
import io.spillover.jobs.JobCommands;
import io.spillover.jobs.JobQueries;
import io.spillover.jobs.JobStatus;
import io.spillover.jobs.JobSubmissions;
import io.spillover.plans.PlanService;
import io.spillover.profiles.ProfileService;
import io.spillover.shared.InvalidRequestException;
import io.spillover.system.Access;
import jakarta.servlet.http.HttpServletResponse;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.ModelAttribute;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

/** A team's jobs in the console: list, submit (with explain), the job's page, stop. */
@Controller
class JobPages {

    /** Request fields the form shows under inputs of other names; the entries' own fields keep theirs. */
    private static final Forms.Fields JOB_FORM = Forms.Fields.of("name", "kind", "profile", "instancePreferences",
                    "instanceCount", "maxPendingTimeInSeconds", "maxRuntimeInSeconds", "expectedRuntimeSeconds",
                    "priority")
            .showing("container", "command").showing("local", "runtimeSeconds").showing("requires", "requiresEfa");

    private final ConsoleAccess access;
    private final JobSubmissions submissions;
    private final JobQueries jobs;
    private final JobCommands commands;
    private final Explanations explanations;
    private final ProfileService profiles;
    private final PlanService plans;
    private final Catalog catalog;
    private final Equivalents equivalents;
    private final Charts charts;

    JobPages(ConsoleAccess access, JobSubmissions submissions, JobQueries jobs, JobCommands commands,
             Explanations explanations, ProfileService profiles, PlanService plans, Catalog catalog,
             Equivalents equivalents, Charts charts) {
        this.charts = charts;
        this.access = access;
        this.submissions = submissions;
        this.jobs = jobs;
        this.commands = commands;
        this.explanations = explanations;
        this.profiles = profiles;
        this.plans = plans;
        this.catalog = catalog;
        this.equivalents = equivalents;
    }

    @GetMapping("/teams/{team}/jobs")
    String list(@PathVariable String team, @RequestParam(required = false) JobStatus status,
                @RequestParam(defaultValue = "0") int page, Model model) {
        access.require(Access.Level.MEMBER, team);
        model.addAttribute("team", team);
        model.addAttribute("status", status);
        model.addAttribute("statuses", JobStatus.values());
        model.addAttribute("page", jobs.list(team, status, page, 25));
        return "jobs/list";
    }

    @GetMapping("/teams/{team}/jobs/new")
    String form(@PathVariable String team, Model model) {
        access.require(Access.Level.MEMBER, team);
        return form(team, new JobForm(), Map.of(), model);
    }

    @PostMapping("/teams/{team}/jobs")
    String submit(@PathVariable String team, @ModelAttribute JobForm form, Model model,
                  RedirectAttributes redirect) {
        try {
            var submitted = submissions.submit(team, form.toRequest());
            redirect.addFlashAttribute("flash", "Submitted " + submitted.job().name());
            return "redirect:/teams/" + team + "/jobs/" + submitted.job().name();
        } catch (InvalidRequestException e) {
            return form(team, form, errors(form, e), model);
        }
    }

    /**
     * Where the form's job would go now, and why not elsewhere: a fragment for the form's Explain button. A
     * request that breaks rules redraws the form instead, with each error beside its input, as Submit does.
     */
    @PostMapping("/teams/{team}/jobs/explain")
    String explain(@PathVariable String team, @ModelAttribute JobForm form, Model model,
                   HttpServletResponse response) {
        access.require(Access.Level.MEMBER, team);
        try {
            model.addAttribute("explained", explanations.explain(team, form.toRequest()));
            return "jobs/explain :: result";
        } catch (InvalidRequestException e) {
            response.setHeader("HX-Retarget", "#job-form");
            response.setHeader("HX-Reswap", "outerHTML");
            form(team, form, errors(form, e), model);
            return "jobs/form :: form";
        }
    }

    /** Equivalent counts for one row of the preference editor. */
    @GetMapping("/teams/{team}/jobs/equivalents")
    String equivalents(@PathVariable String team, @RequestParam(required = false) String instanceType,
                       @RequestParam(required = false) Integer instanceCount, Model model) {
        access.require(Access.Level.MEMBER, team);
        List<Equivalents.Suggestion> suggestions = catalog.find(instanceType)
                .filter(type -> type.acceleratorCount() > 0)
                .map(type -> equivalents.of(type, instanceCount == null || instanceCount < 1 ? 1 : instanceCount,
                        Equivalents.Basis.ACCELERATORS, null))
                .orElse(List.of());
        model.addAttribute("suggestions", suggestions.stream().limit(3).toList());
        return "jobs/explain :: equivalents";
    }

    @GetMapping("/teams/{team}/jobs/{job}")
    String show(@PathVariable String team, @PathVariable String job, Model model) {
        access.require(Access.Level.MEMBER, team);
        model.addAllAttributes(jobModel(team, job));
        return "jobs/show";
    }

    /** The part of the job's page that live updates redraw. */
    @GetMapping("/teams/{team}/jobs/{job}/panel")
    String panel(@PathVariable String team, @PathVariable String job, Model model) {
        access.require(Access.Level.MEMBER, team);
        model.addAllAttributes(jobModel(team, job));
        return "jobs/show :: panel";
    }

    @PostMapping("/teams/{team}/jobs/{job}/stop")
    String stop(@PathVariable String team, @PathVariable String job, RedirectAttributes redirect) {
        commands.stop(team, job);
        redirect.addFlashAttribute("flash", "Asked to stop " + job);
        return "redirect:/teams/" + team + "/jobs/" + job;
    }

    private Map<String, Object> jobModel(String team, String job) {
        var model = new LinkedHashMap<String, Object>();
        model.put("team", team);
        var described = jobs.describe(team, job);
        model.put("job", described);
        model.put("estimateChart", charts.startEstimate(described.estimatedStart(), described.pendingDeadline()));
        model.put("evaluations", jobs.evaluations(team, job, 50));
        model.put("logs", jobs.logs(team, job));
        return model;
    }

    private String form(String team, JobForm form, Map<String, String> errors, Model model) {
        model.addAttribute("team", team);
        model.addAttribute("form", form);
        model.addAttribute("errors", errors);
        model.addAttribute("types", catalog.all().stream().map(InstanceType::name).toList());
        model.addAttribute("profiles", profiles.list(team));
        model.addAttribute("plans", plans.visibleTo(team));
        return "jobs/form";
    }

    /** The violations by the input that shows them, each entry's beside that entry's inputs. */
    private static Map<String, String> errors(JobForm form, InvalidRequestException e) {
        var entryFields = IntStream.range(0, form.getEntries().size()).boxed()
                .flatMap(i -> List.of("instanceType", "instanceCount", "trainingPlan", "region").stream()
                        .map(field -> "instancePreferences[" + i + "]." + field))
                .collect(Collectors.toSet());
        return JOB_FORM.showing(entryFields).errors(e.violations());
    }
}
