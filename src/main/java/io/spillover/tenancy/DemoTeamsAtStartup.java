package io.spillover.tenancy;

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
class DemoTeamsAtStartup implements SmartInitializingSingleton {

    private static final Logger log = LoggerFactory.getLogger(DemoTeamsAtStartup.class);

    private final DemoTeams demoTeams;
    private final Teams all;

    DemoTeamsAtStartup(DemoTeams demoTeams, Teams all) {
        this.demoTeams = demoTeams;
        this.all = all;
    }

    @Override
    public void afterSingletonsInstantiated() {
        if (all.count() > 0) {
            return;
        }
        demoTeams.seed();
        log.info("Seeded the demo teams 'vision' and 'nlp'");
    }
}
