package io.spillover.jobs;

import io.spillover.capacity.CapacityService;
import io.spillover.placement.Decision;
import io.spillover.placement.Placement;
import io.spillover.placement.PlacementRequest;
import io.spillover.placement.SharingPolicy;
import io.spillover.tenancy.SharingProperties;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * The explain dry run: where a job would be placed now, and why not elsewhere, borrowing idle quota of other teams
 * as the scheduler would let it; nothing is stored. It decides the one job: what a queue pass would claim for jobs
 * of teams below their guarantees first, it does not know.
 */
@Service
public class Explanations {

    private final SubmissionChecks checks;
    private final Placement placement;
    private final CapacityService capacity;
    private final SharingProperties sharing;
    private final Clock clock;

    Explanations(SubmissionChecks checks, Placement placement, CapacityService capacity, SharingProperties sharing,
                 Clock clock) {
        this.sharing = sharing;
        this.checks = checks;
        this.placement = placement;
        this.capacity = capacity;
        this.clock = clock;
    }

    @Transactional(readOnly = true)
    public ExplainView explain(String team, JobRequest request) {
        SubmissionChecks.Checked checked = checks.check(team, request);
        Instant now = clock.instant();
        var job = new PlacementRequest(team, request.kind(), checked.preferences(),
                request.maxRuntimeInSeconds() == null ? null : Duration.ofSeconds(request.maxRuntimeInSeconds()),
                sharing.preemptible(Boolean.TRUE.equals(request.preemptible()), 0));
        Decision decision = placement.decide(job, capacity.snapshot(), now, entry -> null,
                sharing.policy(SharingPolicy.DEFAULT.cycle()));
        return new ExplainView(now, decision.outcome(),
                decision.selected().map(v -> v.index()).orElse(null), decision.entries());
    }
}
