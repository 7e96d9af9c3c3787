package io.spillover.placement;

import java.time.Instant;
import java.util.Map;

/**
 * When a pending job's clock starts (SPEC §3.4.3): at submission, except that while every entry names a
 * plan that is still SCHEDULED the clock does not run, so it starts when the first of those plans does.
 */
public final class PendingClock {

    private PendingClock() {
    }

    /**
     * @param plans the plans the entries may name, by name
     */
    public static Instant startsAt(PreferenceList preferences, Map<String, PlanState> plans, Instant submittedAt) {
        Instant earliestStart = null;
        for (PreferenceEntry entry : preferences.entries()) {
            PlanState plan = entry.trainingPlan() == null ? null : plans.get(entry.trainingPlan());
            if (plan == null || plan.status() != PlanStatus.SCHEDULED || plan.startTime() == null) {
                return submittedAt;
            }
            earliestStart = earliestStart == null || plan.startTime().isBefore(earliestStart)
                    ? plan.startTime() : earliestStart;
        }
        return earliestStart.isAfter(submittedAt) ? earliestStart : submittedAt;
    }
}
