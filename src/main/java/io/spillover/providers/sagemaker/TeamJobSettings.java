package io.spillover.providers.sagemaker;

import io.spillover.catalog.JobKind;
import io.spillover.providers.JobSettings;
import io.spillover.providers.SageMakerSettings;
import io.spillover.providers.TeamSageMakerSettings;
import io.spillover.shared.Violation;
import java.util.ArrayList;

/**
 * A team's jobs' SageMaker settings, settled at submission: the job's own values over the team's over the
 * platform's. A job that would launch with no role, or (training) with no output location, or with a role
 * outside the team's allow-list, is refused here rather than failed at its launch.
 */
final class TeamJobSettings implements JobSettings {

    private final String team;
    private final TeamSageMakerSettings teamDefaults;
    private final SageMakerProperties platform;
    private final RoleAllowList roles;

    TeamJobSettings(String team, TeamSageMakerSettings teamDefaults, SageMakerProperties platform, RoleAllowList roles) {
        this.team = team;
        this.teamDefaults = teamDefaults;
        this.platform = platform;
        this.roles = roles;
    }

    @Override
    public Settled settle(JobKind kind, SageMakerSettings own) {
        SageMakerSettings job = own == null ? SageMakerSettings.NONE : own;
        var violations = new ArrayList<Violation>();
        if (job.roleArn() != null && !roles.allows(team, job.roleArn())) {
            violations.add(new Violation("sagemaker.roleArn", roles.refusal(team, job.roleArn())));
        } else if (job.roleArn() == null && teamDefaults.roleArn() != null && !roles.allows(team, teamDefaults.roleArn())) {
            // Set before the allow-list changed: the team's admin must be asked for an allowed one.
            violations.add(new Violation("sagemaker.roleArn", "the team's default " + roles.refusal(team,
                    teamDefaults.roleArn()) + "; name an allowed role, or ask a platform admin to set one"));
        }
        SageMakerSettings settled = job.over(teamDefaults);
        if (settled.roleArn() == null) {
            settled = settled.withRoleArn(platform.roleArn());
        }
        if (settled.outputS3Uri() == null) {
            settled = settled.withOutputS3Uri(platform.outputS3Uri());
        }
        if (settled.tags().size() > SageMakerSettings.MAX_TAGS) {
            violations.add(new Violation("sagemaker.tags", "with team " + team + "'s tags the job has "
                    + settled.tags().size() + "; SageMaker takes " + SageMakerSettings.MAX_TAGS
                    + " besides Spillover's own two"));
        }
        if (settled.roleArn() == null) {
            violations.add(new Violation("sagemaker.roleArn", "no execution role to run as: name one, or have a"
                    + " platform admin set team " + team + "'s (PUT /api/v1/admin/teams/" + team + "/sagemaker)"
                    + " or spillover.sagemaker.role-arn"));
        }
        if (kind == JobKind.TRAINING && settled.outputS3Uri() == null) {
            violations.add(new Violation("sagemaker.outputS3Uri", "no output location for the model artifacts:"
                    + " name one (s3://...), or have a platform admin set team " + team + "'s"
                    + " (PUT /api/v1/admin/teams/" + team + "/sagemaker) or spillover.sagemaker.output-s3-uri"));
        }
        return new Settled(settled, violations);
    }
}
