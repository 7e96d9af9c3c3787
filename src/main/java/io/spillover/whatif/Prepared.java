package io.spillover.whatif;

import io.spillover.replay.Holding;
import io.spillover.replay.ReplayJob;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A what-if run's input made ready to replay: the jobs in submission order, what runs from before hold when the
 * replay begins, what was left out and why, and the assumptions the replay makes of them.
 */
record Prepared(List<ReplayJob> jobs, List<Holding> holdings, List<Skipped> skipped, List<String> assumptions) {

    Prepared {
        jobs = List.copyOf(jobs);
        holdings = List.copyOf(holdings);
        skipped = List.copyOf(skipped);
        assumptions = List.copyOf(assumptions);
    }

    Set<String> teams() {
        var teams = new TreeSet<String>();
        jobs.forEach(job -> teams.add(job.team()));
        return teams;
    }

    /** Collects skipped jobs by reason, in the order the reasons first come up. */
    static final class Skips {

        private final Map<String, List<String>> byReason = new LinkedHashMap<>();

        void add(String reason, String job) {
            byReason.computeIfAbsent(reason, r -> new ArrayList<>()).add(job);
        }

        List<Skipped> list() {
            return byReason.entrySet().stream().map(e -> new Skipped(e.getKey(), e.getValue().size(),
                    e.getValue().subList(0, Math.min(Skipped.EXAMPLES, e.getValue().size())))).toList();
        }
    }
}
