package io.spillover.providers;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.util.Map;

/**
 * A team's SageMaker defaults, set by a platform admin ({@code PUT /api/v1/admin/teams/{team}/sagemaker}): its
 * jobs run with them unless they give their own ({@link SageMakerSettings}), and they take the platform's
 * ({@code spillover.sagemaker.role-arn}, {@code output-s3-uri}) where neither says. Null fields are unset.
 *
 * @param roleArn     the execution role, within {@code spillover.sagemaker.allowed-role-arns}
 * @param outputS3Uri where training jobs' model artifacts go
 * @param vpcConfig   the VPC the jobs' instances join
 * @param kmsKeyId    the KMS key for the output and, on types without instance storage, the ML storage volume
 * @param tags        added to every job's tags (a job's own tag of the same key wins)
 */
public record TeamSageMakerSettings(
        @Pattern(regexp = SageMakerSettings.ROLE_ARN, message = "must be an IAM role ARN"
                + " (arn:aws:iam::<account>:role/<name>)") String roleArn,
        @Pattern(regexp = SageMakerSettings.S3_URI, message = "must be an s3:// URI") @Size(max = 1024)
        String outputS3Uri,
        @Valid SageMakerVpc vpcConfig,
        @Pattern(regexp = SageMakerSettings.KMS_KEY, message = "must be a KMS key id, key ARN, alias or alias ARN")
        @Size(max = 2048) String kmsKeyId,
        @Size(max = SageMakerSettings.MAX_TAGS)
        Map<@Pattern(regexp = SageMakerSettings.TAG_KEY, message = SageMakerSettings.TAG_KEY_RULE) String,
                @Pattern(regexp = SageMakerSettings.TAG_VALUE, message = SageMakerSettings.TAG_VALUE_RULE) String> tags) {

    /** A team no admin has set anything for. */
    public static final TeamSageMakerSettings NONE = new TeamSageMakerSettings(null, null, null, null, null);

    public TeamSageMakerSettings {
        tags = tags == null ? Map.of() : Map.copyOf(tags);
    }
}
