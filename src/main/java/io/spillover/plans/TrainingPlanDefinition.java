package io.spillover.plans;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import java.time.Instant;
import java.util.List;

/**
 * The body of {@code POST /admin/training-plans} (with {@code name}) and {@code PUT
 * /admin/training-plans/{plan}}.
 */
public record TrainingPlanDefinition(
        String name,
        @Size(max = 2048) String arn,
        @NotBlank String instanceType,
        @NotNull @Min(1) @Max(10_000) Integer instanceCount,
        String region,
        @NotNull Instant startTime,
        @NotNull Instant endTime,
        @NotNull @Size(max = 1000) List<@NotBlank String> teams) {
}
