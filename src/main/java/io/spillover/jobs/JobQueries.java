package io.spillover.jobs;

import io.spillover.providers.CapacityProvider;
import io.spillover.shared.InvalidRequestException;
import io.spillover.shared.NotFoundException;
import io.spillover.shared.Violation;
import io.spillover.tenancy.TeamService;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.PageRequest;
import org.springframework.data.domain.Sort;
import org.springframework.jdbc.core.simple.JdbcClient;
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
    private final JdbcClient jdbc;

    JobQueries(Jobs jobs, JobHistory history, TeamService teams, CapacityProvider provider, JobEstimates estimates,
               JdbcClient jdbc) {
        this.jobs = jobs;
        this.jdbc = jdbc;
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

    /**
     * A page of the team's jobs of one kind, filtered and sorted as the search says, with when each last changed; read
     * in one query for the ids and one for the jobs.
     */
    @Transactional(readOnly = true)
    public JobSearch.Found search(String team, JobSearch search) {
        teams.state(team);
        var where = new StringBuilder("j.team = :team AND j.kind = :kind AND j.created_at <= :asOf");
        var params = new LinkedHashMap<String, Object>();
        params.put("team", team);
        params.put("kind", search.kind().name());
        params.put("asOf", Timestamp.from(search.asOf()));
        if (search.nameContains() != null) {
            where.append(" AND lower(j.name) LIKE :name ESCAPE '\\'");
            params.put("name", "%" + search.nameContains().toLowerCase(Locale.ROOT).replace("\\", "\\\\")
                    .replace("%", "\\%").replace("_", "\\_") + "%");
        }
        if (search.statuses() != null) {
            where.append(" AND j.status IN (:statuses)");
            params.put("statuses", search.statuses().stream().map(Enum::name).toList());
        }
        range(where, params, "j.created_at", "createdAfter", search.createdAfter(), ">");
        range(where, params, "j.created_at", "createdBefore", search.createdBefore(), "<");
        range(where, params, "m.at", "modifiedAfter", search.modifiedAfter(), ">");
        range(where, params, "m.at", "modifiedBefore", search.modifiedBefore(), "<");
        String direction = search.ascending() ? " ASC" : " DESC";
        var spec = jdbc.sql("SELECT j.id, m.at FROM jobs j CROSS JOIN LATERAL (SELECT coalesce(max(t.at), j.created_at)"
                + " AS at FROM job_transitions t WHERE t.job_id = j.id) m WHERE " + where + " ORDER BY j."
                + search.order().column + direction + ", j.id" + direction + " LIMIT :limit OFFSET :offset");
        for (var param : params.entrySet()) {
            spec = spec.param(param.getKey(), param.getValue());
        }
        var lastModified = new LinkedHashMap<UUID, Instant>();
        spec.param("limit", search.limit() + 1).param("offset", search.offset())
                .query((rs, n) -> Map.entry(rs.getObject(1, UUID.class), rs.getTimestamp(2).toInstant())).list()
                .forEach(e -> lastModified.put(e.getKey(), e.getValue()));
        boolean more = lastModified.size() > search.limit();
        List<UUID> ids = lastModified.keySet().stream().limit(search.limit()).toList();
        Map<UUID, Job> byId = new HashMap<>();
        jobs.findAllById(ids).forEach(job -> byId.put(job.id(), job));
        return new JobSearch.Found(ids.stream().map(byId::get).filter(Objects::nonNull)
                .map(job -> JobView.of(job, null)).toList(), lastModified, more);
    }

    private static void range(StringBuilder where, Map<String, Object> params, String column, String name,
                              Instant bound, String comparison) {
        if (bound != null) {
            where.append(" AND ").append(column).append(' ').append(comparison).append(" :").append(name);
            params.put(name, Timestamp.from(bound));
        }
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
