package io.spillover.jobs;

import io.spillover.providers.CapacityProvider;
import io.spillover.shared.InvalidRequestException;
import io.spillover.shared.NotFoundException;
import io.spillover.shared.Violation;
import io.spillover.tenancy.TeamService;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.PageRequest;
import org.springframework.data.domain.Sort;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** Reads a team's jobs: one, a page of them, their evaluations and logs, and the live ones for the dashboard. */
@Service
public class JobQueries {

    static final int MAX_PAGE_SIZE = 200;

    private final Jobs jobs;
    private final JobHistory history;
    private final TeamService teams;
    private final CapacityProvider provider;
    private final JobEstimates estimates;

    JobQueries(Jobs jobs, JobHistory history, TeamService teams, CapacityProvider provider, JobEstimates estimates) {
        this.jobs = jobs;
        this.estimates = estimates;
        this.history = history;
        this.teams = teams;
        this.provider = provider;
    }

    @Transactional(readOnly = true)
    public JobView describe(String team, String name) {
        Job job = find(team, name);
        EstimatedStart estimate = job.status() == JobStatus.PENDING ? estimates.of(team, job.id()).orElse(null) : null;
        return JobView.of(job, history.transitions(job.id()), estimate);
    }

    @Transactional(readOnly = true)
    public JobPage list(String team, JobStatus status, int page, int size) {
        teams.state(team);
        var violations = new ArrayList<Violation>();
        if (page < 0) {
            violations.add(new Violation("page", "must be 0 or more"));
        }
        if (size < 1 || size > MAX_PAGE_SIZE) {
            violations.add(new Violation("size", "must be from 1 to " + MAX_PAGE_SIZE));
        }
        if (!violations.isEmpty()) {
            throw new InvalidRequestException(violations);
        }
        var pageable = PageRequest.of(page, size, Sort.by(Sort.Order.desc("createdAt"), Sort.Order.desc("id")));
        Page<Job> found = status == null ? jobs.findByTeam(team, pageable)
                : jobs.findByTeamAndStatus(team, status, pageable);
        Map<UUID, EstimatedStart> estimated = estimates.of(found.getContent());
        return new JobPage(found.map(job -> JobView.of(job, null, estimated.get(job.id()))).getContent(), page, size,
                found.getTotalElements(), found.getTotalPages());
    }

    /** The teams' jobs that are waiting or on the provider, oldest first, for the dashboard. */
    @Transactional(readOnly = true)
    public List<JobView> live(Collection<String> teamNames) {
        List<Job> live = jobs.findByTeamInAndStatusInOrderByCreatedAt(teamNames, JobStatus.LIVE);
        Map<UUID, EstimatedStart> estimated = estimates.of(live);
        return live.stream().map(job -> JobView.of(job, null, estimated.get(job.id()))).toList();
    }

    @Transactional(readOnly = true)
    public List<EvaluationView> evaluations(String team, String name, int limit) {
        if (limit < 1 || limit > 500) {
            throw new InvalidRequestException("limit", "must be from 1 to 500");
        }
        return history.evaluations(find(team, name).id(), limit);
    }

    @Transactional(readOnly = true)
    public String logs(String team, String name) {
        Job job = find(team, name);
        if (job.providerJobName() == null) {
            return "";
        }
        return provider.logs(job.providerJobName()).orElse("");
    }

    /** The team's job of that name; 404 when the team or the job does not exist. */
    Job find(String team, String name) {
        teams.state(team);
        return jobs.findByTeamAndName(team, name)
                .orElseThrow(() -> new NotFoundException("team " + team + " has no job " + name));
    }
}
