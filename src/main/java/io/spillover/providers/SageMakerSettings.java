package io.spillover.providers;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a job asks of the SageMaker provider beyond its container. Null fields take its team's defaults
 * ({@link TeamSageMakerSettings}), then the provider's configured ones; the job is stored with them settled
 * ({@link JobSettings}). The other providers ignore it.
 *
 * @param roleArn         the execution role SageMaker assumes for the job
 * @param outputS3Uri     where a training job's model artifacts go
 * @param hyperParameters passed to CreateTrainingJob as they are (SageMaker's limit: 100 of them)
 * @param volumeSizeInGB  the ML storage volume per instance
 * @param vpcConfig       the VPC the job's instances join
 * @param kmsKeyId        the KMS key for the output and, on types without instance storage, the ML storage volume
 * @param tags            added to the job's tags, over its team's
 * @param passThrough     fields of a CreateTrainingJob / CreateProcessingJob body that Spillover does not model
 *                        ({@code InputDataConfig}, {@code CheckpointConfig}, {@code ProcessingInputs}, ...), in
 *                        the API's own PascalCase: merged into the create call as given, except the fields
 *                        Spillover decides (job name, instance type, count, preferences and plan, the pending
 *                        time, the role); {@code Tags} are added to Spillover's own
 */
public record SageMakerSettings(
        @Pattern(regexp = ROLE_ARN, message = "must be an IAM role ARN") String roleArn,
        @Pattern(regexp = S3_URI, message = "must be an s3:// URI") @Size(max = 1024) String outputS3Uri,
        @Size(max = 100) Map<@Size(min = 1, max = 256) String, @Size(max = 2500) String> hyperParameters,
        @Min(1) @Max(16_384) Integer volumeSizeInGB,
        @Valid SageMakerVpc vpcConfig,
        @Pattern(regexp = KMS_KEY, message = "must be a KMS key id, key ARN, alias or alias ARN") @Size(max = 2048)
        String kmsKeyId,
        @Size(max = SageMakerSettings.MAX_TAGS) Map<@Pattern(regexp = TAG_KEY, message = TAG_KEY_RULE) String,
                @Pattern(regexp = TAG_VALUE, message = TAG_VALUE_RULE) String> tags,
        Map<String, Object> passThrough) {

    public static final String ROLE_ARN = "arn:aws[a-z-]*:iam::\\d{12}:role/[\\w+=,.@/-]{1,512}";
    public static final String S3_URI = "s3://[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](/\\S*)?";
    /** A key id, a key ARN, an alias or an alias ARN, as SageMaker's {@code KmsKeyId} takes them. */
    public static final String KMS_KEY = "[0-9a-fA-F-]{36}|mrk-[0-9a-f]{32}|alias/[\\w/-]{1,250}"
            + "|arn:aws[a-z-]*:kms:[a-z0-9-]+:\\d{12}:(key/[0-9a-zA-Z-]{1,100}|alias/[\\w/-]{1,250})";
    /** SageMaker's tag characters; {@code aws:} keys are AWS's, {@code spillover:} keys Spillover's own. */
    public static final String TAG_KEY = "(?!aws:|spillover:)[\\p{L}\\p{Z}\\p{N}_.:/=+\\-@]{1,128}";
    public static final String TAG_KEY_RULE = "must be 1 to 128 letters, digits, spaces or _.:/=+-@,"
            + " not starting aws: or spillover:";
    public static final String TAG_VALUE = "[\\p{L}\\p{Z}\\p{N}_.:/=+\\-@]{0,256}";
    public static final String TAG_VALUE_RULE = "must be up to 256 letters, digits, spaces or _.:/=+-@";

    /** SageMaker takes 50 tags per job; two are Spillover's own (its team and name). */
    public static final int MAX_TAGS = 48;

    /** A job that set nothing. */
    public static final SageMakerSettings NONE = new SageMakerSettings(null, null, null, null);

    public SageMakerSettings {
        hyperParameters = hyperParameters == null ? Map.of() : Map.copyOf(hyperParameters);
        tags = tags == null ? Map.of() : Map.copyOf(tags);
        passThrough = passThrough == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(passThrough));
    }

    /** Settings without pass-through fields. */
    public SageMakerSettings(String roleArn, String outputS3Uri, Map<String, String> hyperParameters,
                             Integer volumeSizeInGB, SageMakerVpc vpcConfig, String kmsKeyId, Map<String, String> tags) {
        this(roleArn, outputS3Uri, hyperParameters, volumeSizeInGB, vpcConfig, kmsKeyId, tags, null);
    }

    /** Settings of the role, output, hyperparameters and volume only. */
    public SageMakerSettings(String roleArn, String outputS3Uri, Map<String, String> hyperParameters,
                             Integer volumeSizeInGB) {
        this(roleArn, outputS3Uri, hyperParameters, volumeSizeInGB, null, null, null, null);
    }

    /**
     * These settings over the team's: each field the job leaves unset takes the team's; tags are the team's with
     * the job's added over them.
     */
    public SageMakerSettings over(TeamSageMakerSettings team) {
        var mergedTags = new HashMap<>(team.tags());
        mergedTags.putAll(tags);
        return new SageMakerSettings(roleArn != null ? roleArn : team.roleArn(),
                outputS3Uri != null ? outputS3Uri : team.outputS3Uri(), hyperParameters, volumeSizeInGB,
                vpcConfig != null ? vpcConfig : team.vpcConfig(), kmsKeyId != null ? kmsKeyId : team.kmsKeyId(),
                mergedTags, passThrough);
    }

    public SageMakerSettings withRoleArn(String role) {
        return new SageMakerSettings(role, outputS3Uri, hyperParameters, volumeSizeInGB, vpcConfig, kmsKeyId, tags,
                passThrough);
    }

    public SageMakerSettings withOutputS3Uri(String output) {
        return new SageMakerSettings(roleArn, output, hyperParameters, volumeSizeInGB, vpcConfig, kmsKeyId, tags,
                passThrough);
    }
}
