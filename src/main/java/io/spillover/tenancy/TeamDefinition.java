package io.spillover.tenancy;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;

/** The body of {@code PUT /admin/teams/{team}}; weight defaults to 1 and queueing to best-effort FIFO. */
public record TeamDefinition(
        @NotBlank @Size(max = 100) String displayName,
        @Min(1) @Max(1000) Integer weight,
        Queueing queueing) {
}
