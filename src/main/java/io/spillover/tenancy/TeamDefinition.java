package io.spillover.tenancy;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;

/**
 * The body of {@code PUT /admin/teams/{team}}; weight defaults to 1, queueing to best-effort FIFO and sharing to
 * {@link SharingDefinition#DEFAULT} (lends its idle guarantee, borrows nothing).
 */
public record TeamDefinition(
        @NotBlank @Size(max = 100) String displayName,
        @Min(1) @Max(1000) Integer weight,
        Queueing queueing,
        @Valid SharingDefinition sharing) {

    public TeamDefinition(String displayName, Integer weight, Queueing queueing) {
        this(displayName, weight, queueing, null);
    }
}
