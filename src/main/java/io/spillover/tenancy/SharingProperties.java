package io.spillover.tenancy;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code spillover.sharing}: how teams lend and borrow idle quota (docs/sharing.md). Every borrowed placement is
 * bounded: the job cannot run past {@code borrowHorizon}, or it opted in to preemption and is stopped with
 * {@code preemptionGrace} when a team below its guarantee needs the instances back.
 *
 * @param enabled         false makes every quota a hard limit again, whatever the teams' sharing says
 * @param borrowHorizon   a job whose maximum run time is at most this may borrow without opting in to preemption
 * @param preemptionGrace how long a preempted job has between SIGTERM and being killed (local provider); SageMaker's
 *                        StopTrainingJob allows its own 120 s
 * @param preemptExempt   no job is preempted before it has run this long (Slurm's {@code PreemptExemptTime})
 * @param maxPreemptions  how often one job may be preempted; then it is no longer preemptible, and borrows only
 *                        within the borrow horizon
 */
@ConfigurationProperties("spillover.sharing")
public record SharingProperties(Boolean enabled, Duration borrowHorizon, Duration preemptionGrace,
                                Duration preemptExempt, Integer maxPreemptions) {

    public SharingProperties {
        enabled = enabled == null || enabled;
        borrowHorizon = borrowHorizon == null ? Duration.ofHours(2) : borrowHorizon;
        preemptionGrace = preemptionGrace == null ? Duration.ofSeconds(120) : preemptionGrace;
        preemptExempt = preemptExempt == null ? Duration.ZERO : preemptExempt;
        maxPreemptions = maxPreemptions == null ? 3 : maxPreemptions;
        if (borrowHorizon.isNegative() || preemptionGrace.isNegative() || preemptExempt.isNegative()) {
            throw new IllegalArgumentException("spillover.sharing: durations cannot be negative");
        }
        if (maxPreemptions < 0) {
            throw new IllegalArgumentException("spillover.sharing.max-preemptions must be 0 or more");
        }
    }

    /** Whether a job that opted in and was preempted this often may be preempted again. */
    public boolean preemptible(boolean optedIn, int preemptions) {
        return enabled && optedIn && preemptions < maxPreemptions;
    }
}
