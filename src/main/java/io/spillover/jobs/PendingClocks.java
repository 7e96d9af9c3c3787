package io.spillover.jobs;

import io.spillover.capacity.PlanDirectory;
import io.spillover.placement.PendingClock;
import io.spillover.placement.PlanState;
import io.spillover.plans.PlanChanged;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.event.TransactionalEventListener;

/**
 * A plan's window moved: pending jobs waiting only for scheduled plans get their clock started anew from the
 * plans' new start (SPEC §3.4.3).
 */
@Component
class PendingClocks {

    private final PlanDirectory plans;
    private final JdbcClient jdbc;
    private final JobChanges changes;

    PendingClocks(PlanDirectory plans, JdbcClient jdbc, JobChanges changes) {
        this.plans = plans;
        this.jdbc = jdbc;
        this.changes = changes;
    }

    @TransactionalEventListener(fallbackExecution = true)
    void planChanged(PlanChanged change) {
        if (!change.edited()) {
            return;
        }
        Map<String, PlanState> states = new HashMap<>();
        plans.plans().forEach(plan -> states.put(plan.name(), plan));
        List<UUID> waiting = jdbc.sql("SELECT DISTINCT j.id FROM jobs j JOIN job_entries e ON e.job_id = j.id"
                        + " WHERE j.status = 'PENDING' AND e.training_plan = ?")
                .param(change.plan()).query(UUID.class).list();
        for (UUID id : waiting) {
            changes.change(id, (job, now) -> {
                job.restartPendingClock(PendingClock.startsAt(job.preferences(), states, job.createdAt()));
                return null;
            });
        }
    }
}
