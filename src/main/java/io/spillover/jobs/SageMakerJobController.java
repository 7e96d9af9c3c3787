package io.spillover.jobs;

import io.spillover.system.Access;
import io.swagger.v3.oas.annotations.Operation;
import java.net.URI;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** Submissions in SageMaker's own shape, for pipelines that already hold CreateTrainingJob bodies. */
@RestController
@RequestMapping("/api/v1/teams/{team}")
class SageMakerJobController {

    private final SageMakerSubmissions submissions;

    SageMakerJobController(SageMakerSubmissions submissions) {
        this.submissions = submissions;
    }

    /** Answers as {@code POST /jobs} does: 201 with the new job; 200 with the original for a seen client token. */
    @PostMapping("/jobs:sagemaker")
    @Access(Access.Level.MEMBER)
    @Operation(summary = "Submit a CreateTrainingJob or CreateProcessingJob body as a job",
            description = "The body is what the AWS CLI or boto3 sends to CreateTrainingJob (TrainingJobName) or"
                    + " CreateProcessingJob (ProcessingJobName), including ResourceConfig.InstancePreferences and"
                    + " StoppingCondition.MaxPendingTimeInSeconds. It becomes the same job POST /jobs makes, under the"
                    + " same checks, quotas and audit; InstancePreferences[i].TrainingPlanArns (or TrainingPlanArn)"
                    + " name the team's plans by ARN, and ClientToken makes a retry answer the first job. Fields"
                    + " Spillover does not model (InputDataConfig, CheckpointConfig, ProcessingInputs, ...) are kept"
                    + " with the job and sent with its create call under the sagemaker provider. Errors name the"
                    + " body's own fields, e.g. ResourceConfig.InstancePreferences[1].InstanceCount.")
    ResponseEntity<JobView> submit(@PathVariable String team, @RequestBody SageMakerJobRequest body) {
        JobSubmissions.Submitted submitted = submissions.submit(team, body);
        if (!submitted.created()) {
            return ResponseEntity.ok(submitted.job());
        }
        return ResponseEntity.created(URI.create("/api/v1/teams/" + team + "/jobs/" + submitted.job().name()))
                .body(submitted.job());
    }
}
