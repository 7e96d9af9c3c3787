package io.spillover.placement;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Decides a queue of pending jobs in one pass, in queue order, against one working capacity: each
 * selection is booked before the next job is decided, so two jobs are never given the same instances.
 * A job that does not fit does not block smaller jobs behind it (best-effort FIFO), except in a
 * strict-FIFO team, where it holds back the team's later jobs.
 */
public final class QueuePass {

    private final Placement placement;

    public QueuePass(Placement placement) {
        this.placement = placement;
    }

    /** One job's decision in the pass. */
    public record Outcome<I extends Comparable<I>>(QueuedRequest<I> job, Decision decision) {
    }

    /**
     * @param queue    the jobs to decide, already in queue order
     * @param capacity the working capacity; selections are booked in it
     */
    public <I extends Comparable<I>> List<Outcome<I>> decide(List<QueuedRequest<I>> queue, Capacity capacity,
                                                             Instant now) {
        var outcomes = new ArrayList<Outcome<I>>(queue.size());
        Map<String, I> heldBackBy = new HashMap<>();
        for (QueuedRequest<I> job : queue) {
            PlacementRequest request = job.request();
            I ahead = heldBackBy.get(request.team());
            Decision decision = ahead != null
                    ? Decision.heldBack(request.preferences(), "waiting behind job " + ahead + " (strict FIFO)")
                    : placement.decide(request, capacity, now);
            if (decision.isSelected()) {
                placement.book(request, decision, capacity);
            } else if (ahead == null && capacity.team(request.team()).map(TeamState::strictFifo).orElse(false)) {
                heldBackBy.put(request.team(), job.id());
            }
            outcomes.add(new Outcome<>(job, decision));
        }
        return outcomes;
    }
}
