package io.spillover.providers.sagemaker;

import io.spillover.catalog.JobKind;
import io.spillover.providers.ProviderJobChanged;
import io.spillover.providers.ProviderJobRefused;
import io.spillover.providers.Refusal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationEventPublisher;

/**
 * The jobs this instance follows on SageMaker: those it launched and those the scheduler asked about (on
 * taking over, and at each sweep). Only the scheduling instance launches and reconciles, so only it follows
 * jobs and polls. Each poll lists, per region and kind, Spillover's jobs modified since the last poll, and
 * describes only those it follows that changed; it reports each change of status and secondary status.
 */
final class JobWatch {

    /** Lists look back this far before the last poll, so a clock a little off from AWS's misses nothing. */
    static final Duration OVERLAP = Duration.ofMinutes(1);
    private static final Logger log = LoggerFactory.getLogger(JobWatch.class);

    /** A job followed: where it is, and what was last seen and reported of it. */
    static final class Followed {
        final JobKind kind;
        final String region;
        volatile Observation last;
        volatile String reported;

        Followed(JobKind kind, String region) {
            this.kind = kind;
            this.region = region;
        }
    }

    private record Source(String region, JobKind kind) {
    }

    private final SageMakerApi api;
    private final ApplicationEventPublisher events;
    private final Clock clock;
    private final Duration capacityWait;
    private final Map<String, Followed> followed = new ConcurrentHashMap<>();
    private final Map<Source, Instant> polledAt = new HashMap<>();
    private final Instant createdAt;

    JobWatch(SageMakerApi api, ApplicationEventPublisher events, Clock clock, Duration capacityWait) {
        this.api = api;
        this.events = events;
        this.clock = clock;
        this.capacityWait = capacityWait;
        this.createdAt = clock.instant();
    }

    Optional<Followed> get(String name) {
        return Optional.ofNullable(followed.get(name));
    }

    Followed follow(String name, JobKind kind, String region) {
        return followed.computeIfAbsent(name, n -> new Followed(kind, region));
    }

    /**
     * Takes in what Describe said: a capacity failure, or a wait for capacity past {@code capacityWait}, is
     * reported as a refusal (the job falls through); any other change as a status change.
     */
    synchronized void observe(String name, Followed job, Observation seen) {
        // A report is taken in by the listener's transaction; when that fails (the database is out of reach)
        // publishing throws, and the job must still read as not seen, so that the next poll describes and
        // reports it again: what was seen and reported is noted only once the report was taken in.
        if (seen.capacityRefused()) {
            events.publishEvent(new ProviderJobRefused(name, seen.message(), Refusal.INSUFFICIENT_CAPACITY));
            job.last = seen;
            followed.remove(name);
            return;
        }
        if (waitedTooLong(seen)) {
            job.last = seen;
            refuseAfterWait(name, job, seen);
            return;
        }
        if (!seen.detail().equals(job.reported)) {
            events.publishEvent(new ProviderJobChanged(name, seen.status(), seen.message()));
            job.reported = seen.detail();
        }
        job.last = seen;
        if (seen.status().ended()) {
            followed.remove(name);
        }
    }

    /** One poll: the changed jobs of every region and kind with jobs followed, then the capacity waits. */
    void poll() {
        Map<Source, Map<String, Followed>> bySource = new HashMap<>();
        followed.forEach((name, job) -> bySource.computeIfAbsent(new Source(job.region, job.kind), s -> new HashMap<>())
                .put(name, job));
        bySource.forEach(this::poll);
        followed.forEach((name, job) -> {
            Observation last = job.last;
            if (last != null && waitedTooLong(last)) {
                synchronized (this) {
                    refuseAfterWait(name, job, last);
                }
            }
        });
    }

    private void poll(Source source, Map<String, Followed> jobs) {
        Instant startedAt = clock.instant();
        Instant since = polledAt.getOrDefault(source, createdAt).minus(OVERLAP);
        List<SageMakerApi.Changed> changed = api.changedSince(source.kind(), source.region(), since);
        for (SageMakerApi.Changed change : changed) {
            Followed job = jobs.get(change.name());
            Observation last = job == null ? null : job.last;
            if (job == null || (last != null && last.lastModified() != null && change.lastModified() != null
                    && !change.lastModified().isAfter(last.lastModified()))) {
                continue;
            }
            api.describe(source.kind(), source.region(), change.name())
                    .ifPresent(seen -> observe(change.name(), job, seen));
        }
        polledAt.put(source, startedAt);
    }

    private boolean waitedTooLong(Observation seen) {
        return seen.waitingSince() != null && seen.waitingSince().plus(capacityWait).isBefore(clock.instant());
    }

    /** The job still waits on SageMaker: stop it there, so it cannot start later unwatched, then fall through. */
    private void refuseAfterWait(String name, Followed job, Observation seen) {
        if (followed.remove(name) == null) {
            return;
        }
        try {
            api.stop(job.kind, job.region, name);
        } catch (RuntimeException e) {
            log.warn("Could not stop {} after its wait for capacity: {}", name, e.getMessage());
        }
        events.publishEvent(new ProviderJobRefused(name, "waited for capacity longer than " + capacityWait
                + " (" + seen.message() + ")", Refusal.INSUFFICIENT_CAPACITY));
    }
}
