package io.spillover.tenancy;

import io.spillover.placement.BorrowLimit;
import io.spillover.placement.SharingStrategy;
import io.spillover.placement.TeamState;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/**
 * What each team uses against its quota. Bookings are guarded updates: the database refuses one that would pass
 * the team's guarantee plus what it may borrow (see V1__schema.sql, V15__sharing.sql), so quotas hold even with
 * concurrent schedulers.
 */
@Component
public class TeamUsage {

    private final JdbcClient jdbc;

    TeamUsage(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * Books one job of {@code count} instances; must join the caller's transaction. Answers how many of them the
     * team holds beyond its guarantee of the type: borrowed.
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public int book(String team, String instanceType, int count, int accelerators) {
        try {
            Optional<Integer> beyond = take(team, instanceType, count);
            if (beyond.isEmpty()) {
                // a type the team has no guarantee for, which it may borrow: its use is counted from now on
                jdbc.sql("INSERT INTO team_quotas (team, instance_type, max_instances) VALUES (?, ?, 0)"
                        + " ON CONFLICT (team, instance_type) DO NOTHING").params(team, instanceType).update();
                beyond = take(team, instanceType, count);
            }
            jdbc.sql("UPDATE teams SET accelerators_in_use = accelerators_in_use + ?, jobs_in_use = jobs_in_use + 1"
                    + " WHERE name = ?").params(accelerators, team).update();
            return Math.max(0, Math.min(count, beyond.get()));
        } catch (DataIntegrityViolationException e) {
            throw new CapacityRefusedException("team " + team + " has no headroom for " + count + " x " + instanceType, e);
        }
    }

    /** Adds the instances to the team's use of the type; how many it then holds beyond its guarantee, if it has a row. */
    private Optional<Integer> take(String team, String instanceType, int count) {
        return jdbc.sql("UPDATE team_quotas SET in_use = in_use + ? WHERE team = ? AND instance_type = ?"
                        + " RETURNING in_use - max_instances AS beyond")
                .params(count, team, instanceType).query(Integer.class).optional();
    }

    @Transactional(propagation = Propagation.MANDATORY)
    public void release(String team, String instanceType, int count, int accelerators) {
        jdbc.sql("UPDATE team_quotas SET in_use = in_use - ? WHERE team = ? AND instance_type = ?")
                .params(count, team, instanceType).update();
        jdbc.sql("UPDATE teams SET accelerators_in_use = accelerators_in_use - ?, jobs_in_use = jobs_in_use - 1"
                + " WHERE name = ?").params(accelerators, team).update();
    }

    /** Every team's quota, use and sharing, as the placement core reads them. */
    public Map<String, TeamState> states() {
        return read(null);
    }

    public Optional<TeamState> state(String team) {
        return Optional.ofNullable(read(team).get(team));
    }

    private static final String STATES = """
            SELECT t.name, t.max_accelerators, t.accelerators_in_use, t.max_concurrent_jobs, t.jobs_in_use,
                   t.queueing, t.sharing, t.borrow_limit_percent, t.borrow_limits_per_type,
                   q.instance_type, q.max_instances, q.in_use, q.borrow_limit
              FROM teams t LEFT JOIN team_quotas q ON q.team = t.name""";

    /** The teams' states from one statement: each team's row beside each of its quotas' rows (one snapshot). */
    private Map<String, TeamState> read(String onlyTeam) {
        record Team(String name, Integer maxAccelerators, int acceleratorsInUse, Integer maxConcurrentJobs,
                    int jobsInUse, boolean strictFifo, SharingStrategy sharing, Integer borrowLimitPercent,
                    boolean borrowLimitsPerType, Map<String, Integer> limits, Map<String, Integer> used,
                    Map<String, Integer> borrowLimits) {
        }
        var teams = new LinkedHashMap<String, Team>();
        // Two statements, not one with "? IS NULL OR t.name = ?": PostgreSQL cannot keep a generic plan for that
        // predicate and planned it anew on every submission (a tenth of a millisecond, as long as running it).
        var statement = onlyTeam == null ? jdbc.sql(STATES) : jdbc.sql(STATES + " WHERE t.name = ?").param(onlyTeam);
        statement.query(rs -> {
            String name = rs.getString("name");
            Team team = teams.get(name);
            if (team == null) {
                team = new Team(name, (Integer) rs.getObject("max_accelerators"),
                        rs.getInt("accelerators_in_use"), (Integer) rs.getObject("max_concurrent_jobs"),
                        rs.getInt("jobs_in_use"),
                        Queueing.valueOf(rs.getString("queueing")) == Queueing.STRICT_FIFO,
                        SharingStrategy.valueOf(rs.getString("sharing")),
                        (Integer) rs.getObject("borrow_limit_percent"), rs.getBoolean("borrow_limits_per_type"),
                        new HashMap<>(), new HashMap<>(), new HashMap<>());
                teams.put(name, team);
            }
            String type = rs.getString("instance_type");
            if (type != null) {
                team.limits().put(type, rs.getInt("max_instances"));
                team.used().put(type, rs.getInt("in_use"));
                Integer borrowLimit = (Integer) rs.getObject("borrow_limit");
                if (borrowLimit != null) {
                    team.borrowLimits().put(type, borrowLimit);
                }
            }
        });
        var byName = new HashMap<String, TeamState>();
        teams.forEach((name, team) -> {
            BorrowLimit borrowLimit = team.borrowLimitPercent() != null
                    ? BorrowLimit.percent(team.borrowLimitPercent())
                    : team.borrowLimitsPerType() ? BorrowLimit.perType(team.borrowLimits()) : BorrowLimit.UNLIMITED;
            byName.put(name, new TeamState(name, team.limits(), team.used(), team.maxAccelerators(),
                    team.acceleratorsInUse(), team.maxConcurrentJobs(), team.jobsInUse(), team.strictFifo(),
                    team.sharing(), borrowLimit));
        });
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

    /**
     * Sets the team's borrow limits per type: listed types to their value (a type it has no guarantee for gets a
     * row with none), every other type's removed.
     */
    @Transactional(propagation = Propagation.MANDATORY)
    void replaceBorrowLimits(String team, Map<String, Integer> borrowLimits) {
        jdbc.sql("UPDATE team_quotas SET borrow_limit = NULL WHERE team = ? AND borrow_limit IS NOT NULL")
                .param(team).update();
        borrowLimits.forEach((type, max) -> jdbc.sql("INSERT INTO team_quotas (team, instance_type, max_instances,"
                        + " borrow_limit) VALUES (?, ?, 0, ?) ON CONFLICT (team, instance_type)"
                        + " DO UPDATE SET borrow_limit = excluded.borrow_limit")
                .params(team, type, max).update());
    }
}
