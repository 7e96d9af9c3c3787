package io.spillover.jobs;

import io.spillover.shared.ConflictException;
import io.spillover.system.Access;
import io.spillover.system.Change;
import org.springframework.stereotype.Service;

/** What a team's members ask of a job once it is submitted: for now, to stop it. */
@Service
public class JobCommands {

    private final JobQueries queries;
    private final JobLifecycle lifecycle;

    JobCommands(JobQueries queries, JobLifecycle lifecycle) {
        this.queries = queries;
        this.lifecycle = lifecycle;
    }

    /** Stops a live job; stopping one that already ended is a conflict. */
    @Change(level = Access.Level.MEMBER, action = "stop job", target = "teams/{team}/jobs/{name}")
    public JobView stop(String team, String name) {
        Job job = queries.find(team, name);
        if (job.status().ended()) {
            throw new ConflictException("job " + name + " already ended: " + job.status());
        }
        if (job.status() != JobStatus.STOPPING || job.beingPreempted()) {
            lifecycle.stop(job.id(), StatusReason.STOPPED_BY_USER, "stopped by a user");
        }
        return queries.describe(team, name);
    }
}
