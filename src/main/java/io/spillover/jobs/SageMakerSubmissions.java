package io.spillover.jobs;

import io.spillover.plans.PlanService;
import io.spillover.shared.InvalidRequestException;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.springframework.stereotype.Service;

/**
 * Takes SageMaker-shaped job requests: each becomes the ordinary request it means and goes through {@link
 * JobSubmissions#submit}, so every check, quota, idempotency rule and the audit record apply as to any other
 * submission; a refusal names the fields as the body named them.
 */
@Service
public class SageMakerSubmissions {

    private final JobSubmissions submissions;
    private final PlanService plans;

    SageMakerSubmissions(JobSubmissions submissions, PlanService plans) {
        this.submissions = submissions;
        this.plans = plans;
    }

    public JobSubmissions.Submitted submit(String team, SageMakerJobRequest body) {
        if (body == null) {
            throw new InvalidRequestException("body", "must be a CreateTrainingJob or CreateProcessingJob body");
        }
        var byArn = new AtomicReference<Map<String, String>>(); // read once, and only when the body names a plan
        SageMakerJobRequest.Mapped mapped = body.toJobRequest(arn ->
                Optional.ofNullable(byArn.updateAndGet(known -> known != null ? known : planNamesByArn(team)).get(arn)));
        try {
            return submissions.submit(team, mapped.request());
        } catch (InvalidRequestException refused) {
            throw mapped.renamed(refused);
        }
    }

    /** The plans the team may use, by their ARN: a body names plans as SageMaker does. */
    private Map<String, String> planNamesByArn(String team) {
        var byArn = new HashMap<String, String>();
        plans.visibleTo(team).stream().filter(p -> Objects.nonNull(p.arn()))
                .forEach(p -> byArn.put(p.arn(), p.name()));
        return byArn;
    }
}
