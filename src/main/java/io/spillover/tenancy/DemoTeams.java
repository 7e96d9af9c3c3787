package io.spillover.tenancy;

import io.spillover.placement.SharingStrategy;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.stereotype.Component;

/**
 * Demo teams for a first look: seeded into the embedded database when it has no team yet, never into a
 * database given by URL.
 */
@Component
@ConditionalOnExpression("'${spring.datasource.url:}'.isEmpty() and ${spillover.demo.enabled:true}")
class DemoTeams implements SmartInitializingSingleton {

    private static final Logger log = LoggerFactory.getLogger(DemoTeams.class);

    private final TeamService teams;
    private final Teams all;

    DemoTeams(TeamService teams, Teams all) {
        this.teams = teams;
        this.all = all;
    }

    @Override
    public void afterSingletonsInstantiated() {
        if (all.count() > 0) {
            return;
        }
        // both lend what they leave idle and borrow up to their own guarantee again of what the other leaves idle
        var sharing = new SharingDefinition(SharingStrategy.LEND_AND_BORROW, 100, null);
        teams.put("vision", new TeamDefinition("Vision", 1, Queueing.BEST_EFFORT_FIFO, sharing));
        teams.setQuotas("vision", new QuotaDefinition(Map.of("ml.p5.48xlarge", 2, "ml.p4d.24xlarge", 4,
                "ml.g6e.48xlarge", 4, "ml.g5.48xlarge", 4, "ml.g5.12xlarge", 8, "ml.m5.xlarge", 8), 96, 20));
        teams.put("nlp", new TeamDefinition("Language", 1, Queueing.BEST_EFFORT_FIFO, sharing));
        teams.setQuotas("nlp", new QuotaDefinition(Map.of("ml.p5.48xlarge", 2, "ml.p4de.24xlarge", 2,
                "ml.trn1.32xlarge", 4, "ml.g6.48xlarge", 4, "ml.c5.2xlarge", 8), 64, 10));
        log.info("Seeded the demo teams 'vision' and 'nlp'");
    }
}
