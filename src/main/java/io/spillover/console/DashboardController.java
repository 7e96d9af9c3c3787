package io.spillover.console;

import io.spillover.capacity.CapacityService;
import io.spillover.capacity.Offering;
import io.spillover.demo.DemoService;
import io.spillover.demo.DemoView;
import io.spillover.jobs.JobQueries;
import io.spillover.jobs.JobStatistics;
import io.spillover.plans.PlanService;
import io.spillover.plans.TrainingPlanView;
import io.spillover.security.Caller;
import io.spillover.tenancy.TeamService;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;

/**
 * The dashboard: my teams' queue and running jobs, capacity, usage against quota, and charts of them; for a platform
 * admin, the demo.
 */
@Controller
class DashboardController {

    static final Duration PLAN_WARNING = Duration.ofHours(1);

    private final ConsoleAccess access;
    private final JobQueries jobs;
    private final JobStatistics statistics;
    private final CapacityService capacity;
    private final TeamService teams;
    private final PlanService plans;
    private final Charts charts;
    private final DemoService demo;
    private final Clock clock;

    DashboardController(ConsoleAccess access, JobQueries jobs, JobStatistics statistics, CapacityService capacity,
                        TeamService teams, PlanService plans, Charts charts, DemoService demo, Clock clock) {
        this.demo = demo;
        this.access = access;
        this.jobs = jobs;
        this.statistics = statistics;
        this.capacity = capacity;
        this.teams = teams;
        this.plans = plans;
        this.charts = charts;
        this.clock = clock;
    }

    @GetMapping("/")
    String dashboard(Model model) {
        model.addAllAttributes(panels());
        model.addAttribute("demo", demoPanel());
        return "dashboard";
    }

    /** The demo, for a platform admin where it can run or has run here; null (no panel) otherwise. */
    private DemoView demoPanel() {
        if (!access.caller().platformAdmin()) {
            return null;
        }
        DemoView view = demo.view();
        return view.available() || view.status() != DemoView.Status.IDLE ? view : null;
    }

    /** The parts that live updates redraw. */
    @GetMapping("/dashboard/panels")
    String panels(Model model) {
        model.addAllAttributes(panels());
        return "dashboard :: panels";
    }

    private java.util.Map<String, Object> panels() {
        Caller caller = access.caller();
        List<String> mine = access.teamsOf(caller);
        Instant now = clock.instant();
        List<Offering> offerings = caller.platformAdmin() ? capacity.offerings()
                : capacity.offeringsFor(new HashSet<>(mine));
        var live = jobs.live(mine);
        Instant hourAgo = now.minus(Duration.ofHours(1));
        var usage = mine.stream().map(teams::get).toList();
        List<TrainingPlanView> ending = plans.list().stream()
                .filter(p -> caller.platformAdmin() || p.teams().stream().anyMatch(mine::contains))
                .filter(p -> p.status() == io.spillover.placement.PlanStatus.ACTIVE
                        && p.endTime().isBefore(now.plus(PLAN_WARNING)))
                .toList();
        return java.util.Map.of(
                "pending", live.stream().filter(j -> j.status() == io.spillover.jobs.JobStatus.PENDING).toList(),
                "running", live.stream().filter(j -> j.status() != io.spillover.jobs.JobStatus.PENDING).toList(),
                "offerings", offerings,
                "usage", usage,
                "endingPlans", ending,
                "waitChart", charts.waitHistogram(statistics.waitSeconds(mine, now.minus(Duration.ofDays(1)))),
                "useChart", charts.instancesOverTime(
                        statistics.instancesInUse(mine, hourAgo, now, Duration.ofMinutes(5)), hourAgo, now),
                "usageChart", charts.usageAgainstQuota(usage));
    }
}
