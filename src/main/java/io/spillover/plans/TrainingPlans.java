package io.spillover.plans;

import io.spillover.placement.PlanState;
import io.spillover.placement.PlanStatus;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** Stored training plans and the teams they are shared with. */
@Repository
class TrainingPlans {

    /** A plan as stored. */
    record StoredPlan(String name, String arn, String instanceType, int instanceCount, String region,
                      Instant startTime, Instant endTime, PlanStatus status, List<String> teams) {

        PlanState state() {
            return new PlanState(name, instanceType, region, status, startTime, endTime, Set.copyOf(teams));
        }
    }

    private final JdbcClient jdbc;

    TrainingPlans(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    List<StoredPlan> all() {
        return jdbc.sql("""
                        SELECT p.name, p.arn, p.instance_type, p.instance_count, p.region, p.start_time, p.end_time,
                               p.status, array_remove(array_agg(t.team ORDER BY t.team), NULL) AS teams
                          FROM training_plans p LEFT JOIN training_plan_teams t ON t.plan = p.name
                         GROUP BY p.name ORDER BY p.name""")
                .query((rs, n) -> row(rs))
                .list();
    }

    Optional<StoredPlan> find(String name) {
        return all().stream().filter(p -> p.name().equals(name)).findFirst();
    }

    boolean exists(String name) {
        return jdbc.sql("SELECT count(*) FROM training_plans WHERE name = ?").param(name).query(Long.class).single() > 0;
    }

    void save(StoredPlan plan, Instant now) {
        jdbc.sql("""
                        INSERT INTO training_plans (name, arn, instance_type, instance_count, region, start_time,
                                                    end_time, status, created_at, updated_at)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        ON CONFLICT (name) DO UPDATE SET arn = excluded.arn, instance_type = excluded.instance_type,
                            instance_count = excluded.instance_count, region = excluded.region,
                            start_time = excluded.start_time, end_time = excluded.end_time, status = excluded.status,
                            updated_at = excluded.updated_at""")
                .params(plan.name(), plan.arn(), plan.instanceType(), plan.instanceCount(), plan.region(),
                        Timestamp.from(plan.startTime()), Timestamp.from(plan.endTime()), plan.status().name(),
                        Timestamp.from(now), Timestamp.from(now))
                .update();
        jdbc.sql("DELETE FROM training_plan_teams WHERE plan = ?").param(plan.name()).update();
        plan.teams().forEach(team -> jdbc.sql("INSERT INTO training_plan_teams (plan, team) VALUES (?, ?)")
                .params(plan.name(), team).update());
    }

    /** Moves a plan's status, only from the one expected; answers whether it moved. */
    boolean move(String name, PlanStatus from, PlanStatus to, Instant now) {
        return jdbc.sql("UPDATE training_plans SET status = ?, updated_at = ? WHERE name = ? AND status = ?")
                .params(to.name(), Timestamp.from(now), name, from.name()).update() > 0;
    }

    /** Takes the provider's view of a plan: its status, size and window. */
    void sync(String name, PlanStatus status, int instanceCount, Instant start, Instant end, Instant now) {
        jdbc.sql("UPDATE training_plans SET status = ?, instance_count = ?, start_time = ?, end_time = ?,"
                        + " updated_at = ? WHERE name = ?")
                .params(status.name(), instanceCount, Timestamp.from(start), Timestamp.from(end), Timestamp.from(now),
                        name)
                .update();
    }

    private static StoredPlan row(ResultSet rs) throws SQLException {
        return new StoredPlan(rs.getString("name"), rs.getString("arn"), rs.getString("instance_type"),
                rs.getInt("instance_count"), rs.getString("region"), rs.getTimestamp("start_time").toInstant(),
                rs.getTimestamp("end_time").toInstant(), PlanStatus.valueOf(rs.getString("status")),
                List.of((String[]) rs.getArray("teams").getArray()));
    }
}
