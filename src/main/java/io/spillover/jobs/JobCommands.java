package io.spillover.jobs;

import io.spillover.providers.SageMakerSettings;
import io.spillover.shared.ConflictException;
import io.spillover.shared.InvalidRequestException;
import io.spillover.shared.Violation;
import io.spillover.system.Access;
import io.spillover.system.Change;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Map;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

/** What a team's members ask of a job once it is submitted: to stop it, or to tag it. */
@Service
public class JobCommands {

    private static final JobSpecConverter SPECS = new JobSpecConverter();

    private final JobQueries queries;
    private final JobLifecycle lifecycle;
    private final JdbcClient jdbc;
    private final TransactionTemplate transactions;

    JobCommands(JobQueries queries, JobLifecycle lifecycle, JdbcClient jdbc, TransactionTemplate transactions) {
        this.queries = queries;
        this.lifecycle = lifecycle;
        this.jdbc = jdbc;
        this.transactions = transactions;
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

    /**
     * Adds tags to the job's SageMaker settings (a key it has takes the new value), at any point of its life; a
     * launch after it carries them. Keys and values follow SageMaker's tag rules, and a job keeps at most {@value
     * SageMakerSettings#MAX_TAGS} of its own. The spec is rewritten under a row lock and without touching the job's
     * version, so a tag never collides with the scheduler's changes of the job's status.
     *
     * @return the job's tags now
     */
    @Change(level = Access.Level.MEMBER, action = "tag job", target = "teams/{team}/jobs/{name}")
    public Map<String, String> tag(String team, String name, Map<String, String> tags) {
        var violations = new ArrayList<Violation>();
        if (tags == null || tags.isEmpty()) {
            throw new InvalidRequestException("tags", "give 1 or more tags");
        }
        tags.forEach((key, value) -> {
            if (key == null || !key.matches(SageMakerSettings.TAG_KEY)) {
                violations.add(new Violation("tags[" + key + "]", SageMakerSettings.TAG_KEY_RULE));
            } else if (value == null || !value.matches(SageMakerSettings.TAG_VALUE)) {
                violations.add(new Violation("tags[" + key + "]", SageMakerSettings.TAG_VALUE_RULE));
            }
        });
        if (!violations.isEmpty()) {
            throw new InvalidRequestException(violations);
        }
        return transactions.execute(tx -> {
            UUID id = queries.find(team, name).id();
            JobSpec spec = SPECS.convertToEntityAttribute(jdbc.sql("SELECT spec::text FROM jobs WHERE id = ? FOR UPDATE")
                    .param(id).query(String.class).single()).tagged(tags);
            var keys = new HashSet<>(spec.sagemaker().tags().keySet());
            if (keys.size() > SageMakerSettings.MAX_TAGS) {
                throw new InvalidRequestException("tags", "a job keeps at most " + SageMakerSettings.MAX_TAGS
                        + " tags of its own; it would have " + keys.size());
            }
            jdbc.sql("UPDATE jobs SET spec = ?::jsonb WHERE id = ?").params(SPECS.convertToDatabaseColumn(spec), id)
                    .update();
            return spec.sagemaker().tags();
        });
    }
}
