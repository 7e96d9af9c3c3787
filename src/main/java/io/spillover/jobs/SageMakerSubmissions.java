package io.spillover.jobs;

import io.spillover.catalog.JobKind;
import io.spillover.placement.RequestedEntry;
import io.spillover.plans.PlanService;
import io.spillover.profiles.ProfileDefinition;
import io.spillover.profiles.ProfileService;
import io.spillover.profiles.ProfileView;
import io.spillover.shared.InvalidRequestException;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.springframework.stereotype.Service;

/**
 * Takes SageMaker-shaped job requests, from {@code jobs:sagemaker} and from the SageMaker-compatible endpoint alike:
 * each becomes the ordinary request it means and goes through {@link JobSubmissions#submit}, so every check, quota,
 * idempotency rule and the audit record apply as to any other submission; a refusal names the fields as the body
 * named them.
 *
 * <p>A body with one {@code InstanceType} (clients whose SageMaker model predates instance preference lists can send
 * nothing else) is a one-entry list, unless the team saved a profile named {@value #DEFAULT_PROFILE} whose first entry
 * is that type and count: then the profile's whole list places the job, as if the body had named the profile.
 */
@Service
public class SageMakerSubmissions {

    /** The profile a single-type body takes when its type and count are the profile's first entry. */
    public static final String DEFAULT_PROFILE = "default";

    private final JobSubmissions submissions;
    private final PlanService plans;
    private final ProfileService profiles;

    SageMakerSubmissions(JobSubmissions submissions, PlanService plans, ProfileService profiles) {
        this.submissions = submissions;
        this.plans = plans;
        this.profiles = profiles;
    }

    public JobSubmissions.Submitted submit(String team, SageMakerJobRequest body) {
        if (body == null) {
            throw new InvalidRequestException("body", "must be a CreateTrainingJob or CreateProcessingJob body");
        }
        var byArn = new AtomicReference<Map<String, String>>(); // read once, and only when the body names a plan
        SageMakerJobRequest.Mapped mapped = body.toJobRequest(arn ->
                Optional.ofNullable(byArn.updateAndGet(known -> known != null ? known : planNamesByArn(team)).get(arn)));
        if (mapped.singleType() != null && standsIn(team, mapped)) {
            mapped = mapped.byProfile(DEFAULT_PROFILE);
        }
        try {
            return submissions.submit(team, mapped.request());
        } catch (InvalidRequestException refused) {
            throw mapped.renamed(refused);
        }
    }

    /** Whether the team's default profile begins with the body's one type and count, for the body's kind of job. */
    private boolean standsIn(String team, SageMakerJobRequest.Mapped mapped) {
        Optional<ProfileView> profile = profiles.find(team, DEFAULT_PROFILE);
        if (profile.isEmpty()) {
            return false;
        }
        ProfileDefinition definition = profile.get().definition();
        JobKind kind = mapped.request().kind();
        if (definition.kind() != null && definition.kind() != kind || definition.instancePreferences() == null
                || definition.instancePreferences().isEmpty() || definition.instancePreferences().get(0) == null) {
            return false;
        }
        RequestedEntry first = definition.instancePreferences().get(0);
        Integer count = first.instanceCount() != null ? first.instanceCount() : definition.instanceCount();
        JobRequest.Entry single = mapped.singleType();
        return single.instanceType().equals(first.instanceType()) && first.trainingPlan() == null
                && Objects.equals(count, single.instanceCount() != null ? single.instanceCount()
                : mapped.request().instanceCount());
    }

    /** The plans the team may use, by their ARN: a body names plans as SageMaker does. */
    private Map<String, String> planNamesByArn(String team) {
        var byArn = new HashMap<String, String>();
        plans.visibleTo(team).stream().filter(p -> Objects.nonNull(p.arn()))
                .forEach(p -> byArn.put(p.arn(), p.name()));
        return byArn;
    }
}
