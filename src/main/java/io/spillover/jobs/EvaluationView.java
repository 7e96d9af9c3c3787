package io.spillover.jobs;

import io.spillover.placement.Decision;
import io.spillover.placement.EntryVerdict;
import java.time.Instant;
import java.util.List;

/**
 * One recorded placement evaluation (SPEC §3.3.3). {@code repeats} counts later evaluations with the same
 * outcome and reasons, which are not logged again; {@code lastRepeatedAt} is the latest of them.
 */
public record EvaluationView(Instant at, String trigger, Decision.Outcome outcome, Integer selectedIndex,
                             List<EntryVerdict> entries, int repeats, Instant lastRepeatedAt) {
}
