package io.spillover.jobs;

import io.spillover.placement.Decision;
import io.spillover.placement.EntryVerdict;
import java.time.Instant;
import java.util.List;

/** Where a job would be placed now and why not elsewhere; nothing is stored. */
public record ExplainView(Instant at, Decision.Outcome outcome, Integer selectedIndex, List<EntryVerdict> entries) {
}
