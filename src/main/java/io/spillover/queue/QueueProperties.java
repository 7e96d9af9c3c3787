package io.spillover.queue;

import io.spillover.placement.QueuePolicy;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code spillover.queue}: the platform's {@link QueuePolicy}; each setting left out keeps
 * {@link QueuePolicy#DEFAULT}'s. A job or profile sets its own patience with {@code fallbackAfterSeconds}.
 *
 * @param precedence    a job for whom an offering is an earlier entry goes before one for whom it is a fallback
 * @param fallbackAfter patience per entry before a job may take its next on-demand entry; 0s is first fit
 * @param fairShare     teams compete by decayed usage against their weight (off by default)
 * @param shareDecay    the half-life of usage in fair share ({@code shareDecaySeconds} in the admin API)
 * @param shortestFirst within a team and priority, the highest response ratio (shortest expected run) first
 * @param reserveAfter  a job of several instances waiting this long holds freed instances until it has them
 * @param holdAfterRun  a job holds only once it has also waited as long as its expected run (on by default)
 * @param precedenceLapse the response ratio at which a job stops yielding its fallbacks to jobs that list them
 *                      earlier (2: once it has waited as long as its expected run); 0 never
 * @param firstFit      true serves the queue as first built, whatever the settings above say
 */
@ConfigurationProperties("spillover.queue")
public record QueueProperties(Boolean precedence, Duration fallbackAfter, Boolean fairShare, Duration shareDecay,
                              Boolean shortestFirst, Duration reserveAfter, Boolean holdAfterRun,
                              Double precedenceLapse, boolean firstFit) {

    public QueuePolicy policy() {
        if (firstFit) {
            return QueuePolicy.FIRST_FIT;
        }
        QueuePolicy d = QueuePolicy.DEFAULT;
        return new QueuePolicy(precedence != null ? precedence : d.precedence(),
                fallbackAfter != null ? fallbackAfter : d.fallbackAfter(),
                fairShare != null ? fairShare : d.fairShare(),
                shareDecay != null ? shareDecay : d.shareHalfLife(),
                shortestFirst != null ? shortestFirst : d.shortestFirst(),
                reserveAfter != null ? reserveAfter : d.reserveAfter(), d.patienceShare(),
                precedenceLapse != null ? precedenceLapse : d.precedenceLapse(),
                holdAfterRun != null ? holdAfterRun : d.holdAfterRun());
    }
}
