package io.spillover.tenancy;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import java.util.Map;

/**
 * The body of {@code PUT /admin/teams/{team}/quotas}: instances allowed per type (a type not listed is not
 * allowed), and optional caps on accelerators and concurrent jobs.
 */
public record QuotaDefinition(
        @NotNull @Size(max = 500) Map<String, @NotNull @Min(0) @Max(100_000) Integer> instanceLimits,
        @Min(0) @Max(1_000_000) Integer maxAccelerators,
        @Min(0) @Max(100_000) Integer maxConcurrentJobs) {
}
