package io.spillover.tenancy;

import io.spillover.placement.SharingStrategy;
import java.util.Map;
import org.springframework.stereotype.Component;

/**
 * The demo teams, {@code vision} and {@code nlp}, with quotas that fit the demo fleet: seeded on the embedded
 * default ({@link DemoTeamsAtStartup}), and what the demo (module {@code demo}) runs as.
 */
@Component
public class DemoTeams {

    private final TeamService teams;

    DemoTeams(TeamService teams) {
        this.teams = teams;
    }

    /** Makes both teams, or sets them back to their demo definitions and quotas. */
    public void seed() {
        // both lend what they leave idle and borrow up to their own guarantee again of what the other leaves idle
        var sharing = new SharingDefinition(SharingStrategy.LEND_AND_BORROW, 100, null);
        teams.put("vision", new TeamDefinition("Vision", 1, Queueing.BEST_EFFORT_FIFO, sharing));
        teams.setQuotas("vision", new QuotaDefinition(Map.of("ml.p5.48xlarge", 2, "ml.p4d.24xlarge", 4,
                "ml.g6e.48xlarge", 4, "ml.g5.48xlarge", 4, "ml.g5.12xlarge", 8, "ml.m5.xlarge", 8), 96, 20));
        teams.put("nlp", new TeamDefinition("Language", 1, Queueing.BEST_EFFORT_FIFO, sharing));
        teams.setQuotas("nlp", new QuotaDefinition(Map.of("ml.p5.48xlarge", 2, "ml.p4de.24xlarge", 2,
                "ml.trn1.32xlarge", 4, "ml.g6.48xlarge", 4, "ml.c5.2xlarge", 8), 64, 10));
    }
}
