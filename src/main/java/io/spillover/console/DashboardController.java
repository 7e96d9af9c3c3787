package io.spillover.console;

import io.spillover.capacity.CapacityService;
import io.spillover.capacity.Offering;
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

/** The dashboard: my teams' queue and running jobs, capacity, usage against quota, and two charts. */
@Controller
class DashboardController {

    static final Duration PLAN_WARNING = Duration.ofHours(1);

    private final ConsoleAccess access;
    private final JobQueries jobs;
    private final JobStatistics statistics;
    private final CapacityService capacity;
    private final TeamService teams;
    private final PlanService plans;
    private final Clock clock;

    DashboardController(ConsoleAccess access, JobQueries jobs, JobStatistics statistics, CapacityService capacity,
                        TeamService teams, PlanService plans, Clock clock) {
        this.access = access;
        this.jobs = jobs;
        this.statistics = statistics;
        this.capacity = capacity;
        this.teams = teams;
        this.plans = plans;
        this.clock = clock;
    }

    @GetMapping("/")
    String dashboard(Model model) {
        model.addAllAttributes(panels());
        return "dashboard";
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
        var samples = statistics.instancesInUse(mine, now.minus(Duration.ofHours(1)), now, Duration.ofMinutes(5));
        List<TrainingPlanView> ending = plans.list().stream()
                .filter(p -> caller.platformAdmin() || p.teams().stream().anyMatch(mine::contains))
                .filter(p -> p.status() == io.spillover.placement.PlanStatus.ACTIVE
                        && p.endTime().isBefore(now.plus(PLAN_WARNING)))
                .toList();
        return java.util.Map.of(
                "pending", live.stream().filter(j -> j.status() == io.spillover.jobs.JobStatus.PENDING).toList(),
                "running", live.stream().filter(j -> j.status() != io.spillover.jobs.JobStatus.PENDING).toList(),
                "offerings", offerings,
                "usage", mine.stream().map(teams::get).toList(),
                "endingPlans", ending,
                "waitChart", Charts.waitHistogram("Wait before placement, last 24 h",
                        statistics.waitSeconds(mine, now.minus(Duration.ofDays(1)))),
                "useChart", Charts.bars("Instances in use, last hour",
                        samples.stream().map(s -> Charts.clock(s.at())).toList(),
                        samples.stream().map(s -> (long) s.instances()).toList(), "instances"),
                "chartWidth", Charts.WIDTH,
                "chartHeight", Charts.HEIGHT);
    }
}
