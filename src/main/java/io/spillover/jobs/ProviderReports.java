package io.spillover.jobs;

import io.spillover.providers.ProviderJobChanged;
import io.spillover.providers.ProviderJobStatus;
import java.util.UUID;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Service;

/** What the provider reports of a job's current attempt, followed into the job's status; old attempts are ignored. */
@Service
public class ProviderReports {

    private final JobChanges changes;
    private final JobCapacity capacity;

    ProviderReports(JobChanges changes, JobCapacity capacity) {
        this.changes = changes;
        this.capacity = capacity;
    }

    @EventListener
    public void providerChanged(ProviderJobChanged change) {
        changes.changeAttempt(change.providerJobName(), (job, now) -> {
            ProviderJobStatus status = change.status();
            if (job.status().ended() || status == ProviderJobStatus.STARTING) {
                return null;
            }
            if (status == ProviderJobStatus.RUNNING) {
                return job.status() == JobStatus.STARTING ? job.running(now, change.message()) : null;
            }
            capacity.release(job, true);
            return switch (status) {
                case COMPLETED -> job.end(JobStatus.COMPLETED, StatusReason.COMPLETED, change.message(), now);
                case FAILED -> job.end(JobStatus.FAILED, StatusReason.NONZERO_EXIT, change.message(), now);
                // A stop Spillover asked for keeps its reason (Job.end); any other was the provider's own.
                default -> job.end(JobStatus.STOPPED, StatusReason.STOPPED_BY_PROVIDER, change.message(), now);
            };
        });
    }

    /** The provider lost an attempt it had accepted (it restarted, say): the job fails and frees its capacity. */
    public void lostByProvider(UUID jobId, int attempt) {
        changes.change(jobId, (job, now) -> {
            if (job.attempt() != attempt || job.status().ended()) {
                return null;
            }
            capacity.release(job, true);
            return job.end(JobStatus.FAILED, StatusReason.LOST_BY_PROVIDER,
                    "the provider no longer knows attempt " + attempt, now);
        });
    }
}
