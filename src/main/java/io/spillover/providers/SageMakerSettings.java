package io.spillover.providers;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a job asks of the SageMaker provider beyond its container; null fields take the provider's
 * configured defaults. The other providers ignore it.
 *
 * @param roleArn         the execution role SageMaker assumes for the job
 * @param outputS3Uri     where a training job's model artifacts go
 * @param hyperParameters passed to CreateTrainingJob as they are (SageMaker's limit: 100 of them)
 * @param volumeSizeInGB  the ML storage volume per instance
 * @param passThrough     fields of a CreateTrainingJob / CreateProcessingJob body that Spillover does not model
 *                        ({@code InputDataConfig}, {@code CheckpointConfig}, {@code ProcessingInputs}, ...), in
 *                        the API's own PascalCase: merged into the create call as given, except the fields
 *                        Spillover decides (job name, instance type, count, preferences and plan, the pending
 *                        time, the role); {@code Tags} are added to Spillover's own
 */
public record SageMakerSettings(
        @Pattern(regexp = "arn:aws[a-z-]*:iam::\\d{12}:role/\\S+", message = "must be an IAM role ARN")
        String roleArn,
        @Pattern(regexp = "(s3|https)://\\S+", message = "must be an s3:// URI") @Size(max = 1024)
        String outputS3Uri,
        @Size(max = 100) Map<@Size(min = 1, max = 256) String, @Size(max = 2500) String> hyperParameters,
        @Min(1) @Max(16_384) Integer volumeSizeInGB,
        Map<String, Object> passThrough) {

    public SageMakerSettings {
        hyperParameters = hyperParameters == null ? Map.of() : Map.copyOf(hyperParameters);
        passThrough = passThrough == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(passThrough));
    }

    /** Settings without pass-through fields. */
    public SageMakerSettings(String roleArn, String outputS3Uri, Map<String, String> hyperParameters,
                             Integer volumeSizeInGB) {
        this(roleArn, outputS3Uri, hyperParameters, volumeSizeInGB, null);
    }
}
