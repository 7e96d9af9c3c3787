package io.spillover.plans;

import io.spillover.system.Access;
import java.net.URI;
import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

@RestController
class PlanController {

    private final PlanService plans;
    private final PlanSync sync;

    PlanController(PlanService plans, PlanSync sync) {
        this.plans = plans;
        this.sync = sync;
    }

    /**
     * Brings plans in step with the provider now, instead of at the next scheduled sync; 503 when the provider
     * cannot be reached. Under a provider whose plans follow their window it does nothing.
     */
    @PostMapping("/api/v1/admin/training-plans/sync")
    @Access(Access.Level.PLATFORM_ADMIN)
    PlanSync.Result sync() {
        return sync.sync();
    }

    @PostMapping("/api/v1/admin/training-plans")
    @Access(Access.Level.PLATFORM_ADMIN)
    ResponseEntity<TrainingPlanView> create(@RequestBody TrainingPlanDefinition definition) {
        TrainingPlanView plan = plans.create(definition);
        return ResponseEntity.created(URI.create("/api/v1/admin/training-plans/" + plan.name())).body(plan);
    }

    /** Registers (201) or changes (200) a plan. */
    @PutMapping("/api/v1/admin/training-plans/{plan}")
    @Access(Access.Level.PLATFORM_ADMIN)
    ResponseEntity<TrainingPlanView> put(@PathVariable String plan, @RequestBody TrainingPlanDefinition definition) {
        boolean created = plans.put(plan, definition);
        return ResponseEntity.status(created ? HttpStatus.CREATED : HttpStatus.OK).body(plans.get(plan));
    }

    @GetMapping("/api/v1/admin/training-plans")
    @Access(Access.Level.PLATFORM_ADMIN)
    List<TrainingPlanView> list() {
        return plans.list();
    }

    /** The plans a team may use, with their availability now. */
    @GetMapping("/api/v1/teams/{team}/training-plans")
    @Access(Access.Level.MEMBER)
    List<TrainingPlanView> visible(@PathVariable String team) {
        return plans.visibleTo(team);
    }
}
