package io.spillover.security;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;
import java.time.Instant;

/** The body of a token request: a name to recognise it by, the team role it carries, an optional expiry. */
public record TokenRequest(@NotBlank @Size(max = 100) String name, TeamRole role, Instant expiresAt) {
}
