package io.spillover.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.UUID;
import org.junit.jupiter.api.Test;

/** How wake-ups merge into the next cycle's scope, and which trigger an evaluation records. */
class ScopeTest {

    static final UUID JOB = UUID.randomUUID();

    @Test
    void theLatestEventAboutAJobExplainsItsEvaluation() {
        Scope scope = Scope.job(JOB, Trigger.LAUNCH_REFUSED).and(Scope.job(JOB, Trigger.PREEMPTED));

        assertThat(scope.triggerFor(JOB, "vision", java.util.List.of(), false)).isEqualTo(Trigger.PREEMPTED);
    }

    @Test
    void aSubmissionsWakeUpArrivingLateDoesNotHideWhatHappenedToTheJobSince() {
        // a cycle woken by something else placed the job before its submission's wake-up came; its launch was refused
        Scope scope = Scope.job(JOB, Trigger.LAUNCH_REFUSED).and(Scope.job(JOB, Trigger.SUBMITTED));

        assertThat(scope.triggerFor(JOB, "vision", java.util.List.of(), false)).isEqualTo(Trigger.LAUNCH_REFUSED);
        assertThat(Scope.job(JOB, Trigger.SUBMITTED).triggerFor(JOB, "vision", java.util.List.of(), true))
                .isEqualTo(Trigger.SUBMITTED);
    }
}
