package io.spillover.jobs;

import io.spillover.capacity.CapacityService;
import io.spillover.placement.Decision;
import io.spillover.placement.Placement;
import io.spillover.placement.PlacementRequest;
import java.time.Clock;
import java.time.Instant;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** The explain dry run: where a job would be placed now, and why not elsewhere; nothing is stored. */
@Service
public class Explanations {

    private final SubmissionChecks checks;
    private final Placement placement;
    private final CapacityService capacity;
    private final Clock clock;

    Explanations(SubmissionChecks checks, Placement placement, CapacityService capacity, Clock clock) {
        this.checks = checks;
        this.placement = placement;
        this.capacity = capacity;
        this.clock = clock;
    }

    @Transactional(readOnly = true)
    public ExplainView explain(String team, JobRequest request) {
        SubmissionChecks.Checked checked = checks.check(team, request);
        Instant now = clock.instant();
        Decision decision = placement.decide(new PlacementRequest(team, request.kind(), checked.preferences()),
                capacity.snapshot(), now);
        return new ExplainView(now, decision.outcome(),
                decision.selected().map(v -> v.index()).orElse(null), decision.entries());
    }
}
