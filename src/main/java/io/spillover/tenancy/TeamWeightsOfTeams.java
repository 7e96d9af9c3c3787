package io.spillover.tenancy;

import io.spillover.queue.TeamWeights;
import java.util.Map;
import java.util.TreeMap;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

/** The teams' weights for fair share ({@link TeamWeights}). */
@Component
class TeamWeightsOfTeams implements TeamWeights {

    private final Teams teams;

    TeamWeightsOfTeams(Teams teams) {
        this.teams = teams;
    }

    @Override
    @Transactional(readOnly = true)
    public Map<String, Integer> weights() {
        var weights = new TreeMap<String, Integer>();
        teams.findAll().forEach(team -> weights.put(team.name(), team.weight()));
        return weights;
    }
}
