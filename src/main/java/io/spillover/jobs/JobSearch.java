package io.spillover.jobs;

import io.spillover.catalog.JobKind;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * A search of a team's jobs of one kind, as SageMaker's {@code ListTrainingJobs} and {@code ListProcessingJobs} filter
 * and page them. Null filters do not filter. {@code asOf} bounds the creation time of what is listed, so that pages
 * read one after another are cut from the same list while new jobs arrive.
 *
 * @param nameContains  a part of the name, matched without regard to case
 * @param modifiedAfter compared with the job's last change (its latest transition)
 */
public record JobSearch(JobKind kind, String nameContains, Set<JobStatus> statuses, Instant createdAfter,
                        Instant createdBefore, Instant modifiedAfter, Instant modifiedBefore, Order order,
                        boolean ascending, Instant asOf, int offset, int limit) {

    /** What the list is sorted by; each ties on the job's id, so a page boundary never splits equal keys. */
    public enum Order {
        NAME("name"), CREATED("created_at"), STATUS("status");

        final String column;

        Order(String column) {
            this.column = column;
        }
    }

    /**
     * One page.
     *
     * @param lastModified by job, when it last changed
     * @param more         whether jobs follow this page
     */
    public record Found(List<JobView> jobs, Map<UUID, Instant> lastModified, boolean more) {
    }
}
