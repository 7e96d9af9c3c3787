package io.spillover.tenancy;

import io.spillover.placement.SharingPolicy;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code spillover.sharing}: how teams lend and borrow idle quota (docs/sharing.md); each setting left out keeps
 * {@link SharingPolicy#DEFAULT}'s. Every borrowed placement is bounded: the job cannot run past
 * {@code borrowHorizon}, or it opted in to preemption and is stopped with {@code preemptionGrace} when a team below
 * its guarantee needs the instances back.
 *
 * @param enabled         false makes every quota a hard limit again, whatever the teams' sharing says
 * @param borrowHorizon   a job whose maximum run time is at most this may borrow without opting in to preemption
 * @param preemptionGrace how long a preempted job has between SIGTERM and being killed (local provider); SageMaker's
 *                        StopTrainingJob allows its own 120 s
 * @param preemptExempt   a reclaim stops jobs that have run at least this long before those that have not (Slurm's
 *                        {@code PreemptExemptTime}, as a preference: a lender does not wait for it)
 * @param whenCanBorrow   whether an earlier entry a job could borrow beats a later one within its guarantee
 *                        ({@code BORROW}) or not ({@code TRY_NEXT_ENTRY})
 * @param maxPreemptions  how often one job may be preempted; then it is no longer preemptible, and borrows only
 *                        within the borrow horizon
 * @param shorterFirst    0 (off), or the ratio of in-team preemption: a job that fits nowhere may preempt its own
 *                        team's preemptible jobs that may still run this many times its maximum run time
 *                        ({@link SharingPolicy#shorterFirst})
 */
@ConfigurationProperties("spillover.sharing")
public record SharingProperties(Boolean enabled, Duration borrowHorizon, Duration preemptionGrace,
                                Duration preemptExempt, SharingPolicy.WhenCanBorrow whenCanBorrow,
                                Integer maxPreemptions, Double shorterFirst) {

    public SharingProperties {
        SharingPolicy d = SharingPolicy.DEFAULT;
        enabled = enabled == null ? d.enabled() : enabled;
        borrowHorizon = borrowHorizon == null ? d.borrowHorizon() : borrowHorizon;
        preemptionGrace = preemptionGrace == null ? d.grace() : preemptionGrace;
        preemptExempt = preemptExempt == null ? d.preemptExempt() : preemptExempt;
        whenCanBorrow = whenCanBorrow == null ? d.whenCanBorrow() : whenCanBorrow;
        maxPreemptions = maxPreemptions == null ? 3 : maxPreemptions;
        shorterFirst = shorterFirst == null ? d.shorterFirst() : shorterFirst;
        if (!(shorterFirst == 0 || shorterFirst >= 1 && shorterFirst < Double.POSITIVE_INFINITY)) {
            throw new IllegalArgumentException("spillover.sharing.shorter-first must be 0 (off) or a ratio of at least"
                    + " 1, not " + shorterFirst);
        }
        if (borrowHorizon.isNegative() || preemptionGrace.isNegative() || preemptExempt.isNegative()) {
            throw new IllegalArgumentException("spillover.sharing: durations cannot be negative");
        }
        if (maxPreemptions < 0) {
            throw new IllegalArgumentException("spillover.sharing.max-preemptions must be 0 or more");
        }
    }

    /**
     * The placement core's policy: these settings, and {@code cycle}, the longest the scheduler may take to act on a
     * reclaim (its safety sweep's interval, should an event be missed).
     */
    public SharingPolicy policy(Duration cycle) {
        return new SharingPolicy(enabled, borrowHorizon, preemptExempt, preemptionGrace, cycle, whenCanBorrow,
                shorterFirst);
    }

    /** Whether a job that opted in and was preempted this often may be preempted (and so borrow unbounded) again. */
    public boolean preemptible(boolean optedIn, int preemptions) {
        return enabled && optedIn && preemptions < maxPreemptions;
    }
}
