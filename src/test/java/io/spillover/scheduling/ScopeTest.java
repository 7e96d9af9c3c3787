package io.spillover.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * How a cycle takes a slice of a burst's named jobs and gives the rest back without losing newer news, and which
 * trigger an evaluation records.
 */
class ScopeTest {

    private final UUID first = UUID.randomUUID();
    private final UUID second = UUID.randomUUID();
    private final UUID third = UUID.randomUUID();

    @Test
    void aCycleKeepsTheFirstNamedJobsAndDefersTheRestInOrder() {
        Scope scope = Scope.job(first, Trigger.SUBMITTED).and(Scope.job(second, Trigger.SUBMITTED))
                .and(Scope.job(third, Trigger.SUBMITTED)).and(Scope.team("vision", Trigger.QUOTA_CHANGED));

        Scope later = scope.deferNamedBeyond(1);

        assertThat(scope.jobs()).containsOnlyKeys(first);
        assertThat(scope.teams()).containsOnlyKeys("vision");
        assertThat(List.copyOf(later.jobs().keySet())).containsExactly(second, third);
        assertThat(later.teams()).isEmpty();
    }

    @Test
    void deferredJobsGoBackAheadOfNewerWorkButNewerNewsOfTheSameJobWins() throws InterruptedException {
        var wakeups = new Wakeups(Clock.systemUTC());
        Scope later = Scope.job(first, Trigger.SUBMITTED).and(Scope.job(second, Trigger.SUBMITTED))
                .and(Scope.job(third, Trigger.SUBMITTED));
        wakeups.add(Scope.job(UUID.randomUUID(), Trigger.SUBMITTED).and(Scope.job(second, Trigger.LAUNCH_REFUSED)));

        later.forgetJobs(Set.of(third));
        wakeups.giveBack(later);
        Scope next = wakeups.await(Instant.now());

        assertThat(List.copyOf(next.jobs().keySet()).subList(0, 2)).containsExactly(first, second);
        assertThat(next.jobs()).hasSize(3).doesNotContainKey(third);
        assertThat(next.jobs().get(second)).isEqualTo(Trigger.LAUNCH_REFUSED);
    }

    @Test
    void theLatestEventAboutAJobExplainsItsEvaluation() {
        Scope scope = Scope.job(first, Trigger.LAUNCH_REFUSED).and(Scope.job(first, Trigger.PREEMPTED));

        assertThat(scope.triggerFor(first, "vision", List.of(), false)).isEqualTo(Trigger.PREEMPTED);
    }

    @Test
    void aSubmissionsWakeUpArrivingLateDoesNotHideWhatHappenedToTheJobSince() {
        // a cycle woken by something else placed the job before its submission's wake-up came; its launch was refused
        Scope scope = Scope.job(first, Trigger.LAUNCH_REFUSED).and(Scope.job(first, Trigger.SUBMITTED));

        assertThat(scope.triggerFor(first, "vision", List.of(), false)).isEqualTo(Trigger.LAUNCH_REFUSED);
        assertThat(Scope.job(first, Trigger.SUBMITTED).triggerFor(first, "vision", List.of(), true))
                .isEqualTo(Trigger.SUBMITTED);
    }
}
