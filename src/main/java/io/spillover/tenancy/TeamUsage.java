package io.spillover.tenancy;

import io.spillover.placement.TeamState;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/**
 * What each team uses against its quota. Bookings are guarded updates: the database refuses one that
 * would pass a limit (see V1__schema.sql), so quotas hold even with concurrent schedulers.
 */
@Component
public class TeamUsage {

    private final JdbcClient jdbc;

    TeamUsage(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** Books one job of {@code count} instances; must join the caller's transaction. */
    @Transactional(propagation = Propagation.MANDATORY)
    public void book(String team, String instanceType, int count, int accelerators) {
        try {
            int rows = jdbc.sql("UPDATE team_quotas SET in_use = in_use + ? WHERE team = ? AND instance_type = ?")
                    .params(count, team, instanceType).update();
            if (rows != 1) {
                throw new CapacityRefusedException("team " + team + " has no quota for " + instanceType, null);
            }
            jdbc.sql("UPDATE teams SET accelerators_in_use = accelerators_in_use + ?, jobs_in_use = jobs_in_use + 1"
                    + " WHERE name = ?").params(accelerators, team).update();
        } catch (DataIntegrityViolationException e) {
            throw new CapacityRefusedException("team " + team + " has no headroom for " + count + " x " + instanceType, e);
        }
    }

    @Transactional(propagation = Propagation.MANDATORY)
    public void release(String team, String instanceType, int count, int accelerators) {
        jdbc.sql("UPDATE team_quotas SET in_use = in_use - ? WHERE team = ? AND instance_type = ?")
                .params(count, team, instanceType).update();
        jdbc.sql("UPDATE teams SET accelerators_in_use = accelerators_in_use - ?, jobs_in_use = jobs_in_use - 1"
                + " WHERE name = ?").params(accelerators, team).update();
    }

    /** Every team's quota and use, as the placement core reads them. */
    public Map<String, TeamState> states() {
        return read(null);
    }

    public Optional<TeamState> state(String team) {
        return Optional.ofNullable(read(team).get(team));
    }

    private Map<String, TeamState> read(String onlyTeam) {
        var limits = new HashMap<String, Map<String, Integer>>();
        var used = new HashMap<String, Map<String, Integer>>();
        jdbc.sql("SELECT team, instance_type, max_instances, in_use FROM team_quotas WHERE ?::text IS NULL OR team = ?")
                .params(onlyTeam, onlyTeam)
                .query(rs -> {
                    String team = rs.getString("team");
                    limits.computeIfAbsent(team, t -> new HashMap<>()).put(rs.getString("instance_type"), rs.getInt("max_instances"));
                    used.computeIfAbsent(team, t -> new HashMap<>()).put(rs.getString("instance_type"), rs.getInt("in_use"));
                });
        List<TeamState> teams = jdbc.sql("SELECT name, max_accelerators, accelerators_in_use, max_concurrent_jobs,"
                        + " jobs_in_use, queueing FROM teams WHERE ?::text IS NULL OR name = ?")
                .params(onlyTeam, onlyTeam)
                .query((rs, n) -> new TeamState(rs.getString("name"),
                        limits.getOrDefault(rs.getString("name"), Map.of()),
                        used.getOrDefault(rs.getString("name"), Map.of()),
                        (Integer) rs.getObject("max_accelerators"), rs.getInt("accelerators_in_use"),
                        (Integer) rs.getObject("max_concurrent_jobs"), rs.getInt("jobs_in_use"),
                        Queueing.valueOf(rs.getString("queueing")) == Queueing.STRICT_FIFO))
                .list();
        var byName = new HashMap<String, TeamState>();
        teams.forEach(t -> byName.put(t.team(), t));
        return byName;
    }

    /** Sets the team's limits: listed types to their value, every other type it had to 0. */
    @Transactional(propagation = Propagation.MANDATORY)
    void replaceLimits(String team, Map<String, Integer> limits) {
        jdbc.sql("UPDATE team_quotas SET max_instances = 0 WHERE team = ?").param(team).update();
        limits.forEach((type, max) -> jdbc.sql("INSERT INTO team_quotas (team, instance_type, max_instances)"
                        + " VALUES (?, ?, ?) ON CONFLICT (team, instance_type) DO UPDATE SET max_instances = excluded.max_instances")
                .params(team, type, max).update());
    }
}
