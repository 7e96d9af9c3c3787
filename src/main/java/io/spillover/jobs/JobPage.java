package io.spillover.jobs;

import java.util.List;

/** One page of a team's jobs, newest first. */
public record JobPage(List<JobView> items, int page, int size, long totalItems, int totalPages) {
}
